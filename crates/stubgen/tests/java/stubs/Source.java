package stubs;

/** A generic interface: `next` erases to `()Ljava/lang/Object;`; the default method is not stubbed. */
public interface Source<T> {
    T next();

    int size(char c, Object[] xs);

    default String both() {
        return next() + ":" + size('x', new Object[] {"a", 1});
    }
}
