/* Diagrams test input: a C program with no tensor code. */
int main(void)
{
    int n = 3;
    return n - 3;
}
