#!/usr/bin/env python3
"""Write a header of 32-bit ints, for the tests that read one with fread.

    write_ints.py PATH N ...
"""
import struct
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    values = [int(a) for a in sys.argv[2:]]
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<%di" % len(values), *values))


if __name__ == "__main__":
    main()
