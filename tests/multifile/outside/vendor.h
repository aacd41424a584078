/* A vendor's library, linked in by the build but not part of the program's
 * units: the analysis sees only this declaration. */
#ifndef VENDOR_H
#define VENDOR_H
void vendor_tune(int *dims);
#endif
