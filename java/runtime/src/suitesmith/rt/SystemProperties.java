/**
 * The JVM's system properties as a worker's tests start, and their restoration after each test.
 * System properties are JVM-wide: a test that sets, clears or replaces them (`System.setProperty`,
 * `clearProperty`, `setProperties`, or a change through `System.getProperties()`) would change what
 * every later test in the worker sees, so a test's outcome would depend on the tests that ran before
 * it and on the number of workers. EvoSuite restores them too (its runtime after each execution, its
 * scaffolding in `@After`); the written tests of a class whose tests changed them do the same
 * (crates/junit).
 *
 * Restoration is in place: the `Properties` object the worker started with stays the JVM's (the JDK
 * and the code under test keep references to it), with its entries put back. It does not restore the
 * object's `defaults`, which only a subclass or the JDK's own start-up can set.
 */
package suitesmith.rt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

final class SystemProperties {
    /** The object `System.getProperties()` returned when the snapshot was taken. */
    private final Properties original;
    /** Its entries then. */
    private final Map<Object, Object> entries;

    private SystemProperties(Properties original) {
        this.original = original;
        this.entries = new HashMap<Object, Object>(original);
    }

    /** The system properties as they are now. */
    static SystemProperties snapshot() {
        return new SystemProperties(System.getProperties());
    }

    /**
     * Puts the system properties back as they were at the snapshot, if they differ, and says whether
     * they did. The common case, nothing changed, costs one look-up per property.
     */
    boolean restore() {
        boolean replaced = System.getProperties() != original;
        if (replaced) System.setProperties(original);
        if (!replaced && same()) return false;
        for (Object key : new ArrayList<Object>(original.keySet())) {
            if (!entries.containsKey(key)) original.remove(key);
        }
        for (Map.Entry<Object, Object> e : entries.entrySet()) {
            if (!e.getValue().equals(original.get(e.getKey()))) original.put(e.getKey(), e.getValue());
        }
        return true;
    }

    /** Whether the original object holds exactly the snapshot's entries. */
    private boolean same() {
        if (original.size() != entries.size()) return false;
        for (Map.Entry<Object, Object> e : entries.entrySet()) {
            if (!e.getValue().equals(original.get(e.getKey()))) return false;
        }
        return true;
    }
}
