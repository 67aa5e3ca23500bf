/**
 * Reflection and method handles onto guarded methods: {@code Method.invoke},
 * {@code Constructor.newInstance} and {@code MethodHandles.Lookup.find*}/{@code unreflect*} are
 * redirected (crates/rt-abi {@code REDIRECTS}) to {@link Guards}, which asks here whether the
 * target is itself a redirected call and, if so, ends in its guard, as an instrumented call site
 * of the target would: {@code File.class.getMethod("delete").invoke(f)} calls
 * {@code Guards.fileDelete(f)}, and {@code lookup.findVirtual(File.class, "delete", ...)} returns a
 * handle to it, adapted to the handle's type.
 *
 * <p>{@link #TABLE} is a copy of the table in the form {@code opcode owner name descriptor action
 * guard guard-descriptor [new-descriptor]}; a test of crates/rt-abi checks that it lists exactly
 * the redirects that are not observe-only, in order.
 *
 * <p>Everything else passes through. {@code Method.invoke} and {@code Constructor.newInstance}
 * check access against their caller, which is now {@code Guards}: when that fails, the caller is
 * read from the stack and the JDK's rule applied for it ({@link #callerMay}), so that code reaching
 * its own private or package members reflectively behaves as without the redirect.
 */
package suitesmith.rt;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

final class Reflective {
    private Reflective() {}

    /** The redirects that contain a test or make it deterministic; see the class comment. */
    static final String[] TABLE = {
        "static java/lang/System exit (I)V replace systemExit (I)V",
        "virtual java/lang/Runtime exit (I)V replace runtimeExit (Ljava/lang/Runtime;I)V",
        "virtual java/lang/Runtime halt (I)V replace runtimeHalt (Ljava/lang/Runtime;I)V",
        "virtual java/lang/Runtime addShutdownHook (Ljava/lang/Thread;)V replace runtimeAddShutdownHook (Ljava/lang/Runtime;Ljava/lang/Thread;)V",
        "virtual java/lang/Runtime exec (Ljava/lang/String;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;Ljava/lang/String;)Ljava/lang/Process;",
        "virtual java/lang/Runtime exec ([Ljava/lang/String;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;[Ljava/lang/String;)Ljava/lang/Process;",
        "virtual java/lang/Runtime exec (Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
        "virtual java/lang/Runtime exec ([Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;[Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/Process;",
        "virtual java/lang/Runtime exec (Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
        "virtual java/lang/Runtime exec ([Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process; replace runtimeExec (Ljava/lang/Runtime;[Ljava/lang/String;[Ljava/lang/String;Ljava/io/File;)Ljava/lang/Process;",
        "virtual java/lang/ProcessBuilder start ()Ljava/lang/Process; replace processBuilderStart (Ljava/lang/ProcessBuilder;)Ljava/lang/Process;",
        "virtual java/lang/Thread start ()V replace threadStart (Ljava/lang/Thread;)V",
        "static java/lang/System currentTimeMillis ()J replace currentTimeMillis ()J",
        "static java/lang/System nanoTime ()J replace nanoTime ()J",
        "static java/lang/Math random ()D replace mathRandom ()D",
        "static java/lang/StrictMath random ()D replace mathRandom ()D",
        "static java/util/UUID randomUUID ()Ljava/util/UUID; replace randomUUID ()Ljava/util/UUID;",
        "static java/time/Clock systemUTC ()Ljava/time/Clock; replace clock ()Ljava/time/Clock;",
        "static java/time/Clock systemDefaultZone ()Ljava/time/Clock; replace clock ()Ljava/time/Clock;",
        "static java/time/Instant now ()Ljava/time/Instant; replace instantNow ()Ljava/time/Instant;",
        "static java/time/LocalDateTime now ()Ljava/time/LocalDateTime; replace localDateTimeNow ()Ljava/time/LocalDateTime;",
        "static java/time/LocalDate now ()Ljava/time/LocalDate; replace localDateNow ()Ljava/time/LocalDate;",
        "special java/util/Random <init> ()V push randomSeed ()J (J)V",
        "virtual java/io/File delete ()Z replace fileDelete (Ljava/io/File;)Z",
        "virtual java/io/File createNewFile ()Z replace fileCreateNewFile (Ljava/io/File;)Z",
        "virtual java/io/File mkdir ()Z replace fileMkdir (Ljava/io/File;)Z",
        "virtual java/io/File mkdirs ()Z replace fileMkdirs (Ljava/io/File;)Z",
        "virtual java/io/File renameTo (Ljava/io/File;)Z replace fileRenameTo (Ljava/io/File;Ljava/io/File;)Z",
        "virtual java/io/File deleteOnExit ()V replace fileDeleteOnExit (Ljava/io/File;)V",
        "virtual java/io/File setReadOnly ()Z replace fileSetReadOnly (Ljava/io/File;)Z",
        "virtual java/io/File setLastModified (J)Z replace fileSetLastModified (Ljava/io/File;J)Z",
        "virtual java/io/File setWritable (Z)Z replace fileSetWritable (Ljava/io/File;Z)Z",
        "virtual java/io/File setWritable (ZZ)Z replace fileSetWritable (Ljava/io/File;ZZ)Z",
        "virtual java/io/File setReadable (Z)Z replace fileSetReadable (Ljava/io/File;Z)Z",
        "virtual java/io/File setReadable (ZZ)Z replace fileSetReadable (Ljava/io/File;ZZ)Z",
        "virtual java/io/File setExecutable (Z)Z replace fileSetExecutable (Ljava/io/File;Z)Z",
        "virtual java/io/File setExecutable (ZZ)Z replace fileSetExecutable (Ljava/io/File;ZZ)Z",
        "static java/io/File createTempFile (Ljava/lang/String;Ljava/lang/String;)Ljava/io/File; replace fileCreateTempFile (Ljava/lang/String;Ljava/lang/String;)Ljava/io/File;",
        "static java/io/File createTempFile (Ljava/lang/String;Ljava/lang/String;Ljava/io/File;)Ljava/io/File; replace fileCreateTempFile (Ljava/lang/String;Ljava/lang/String;Ljava/io/File;)Ljava/io/File;",
        "static java/nio/file/Files createTempFile (Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateTempFile (Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files createTempFile (Ljava/nio/file/Path;Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateTempFile (Ljava/nio/file/Path;Ljava/lang/String;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files createTempDirectory (Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateTempDirectory (Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files createTempDirectory (Ljava/nio/file/Path;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateTempDirectory (Ljava/nio/file/Path;Ljava/lang/String;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "special java/io/FileOutputStream <init> (Ljava/lang/String;)V checkLast checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/FileOutputStream <init> (Ljava/io/File;)V checkLast checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/FileOutputStream <init> (Ljava/lang/String;Z)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/FileOutputStream <init> (Ljava/io/File;Z)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/FileWriter <init> (Ljava/lang/String;)V checkLast checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/FileWriter <init> (Ljava/io/File;)V checkLast checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/FileWriter <init> (Ljava/lang/String;Z)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/FileWriter <init> (Ljava/io/File;Z)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/PrintWriter <init> (Ljava/lang/String;)V checkLast checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintWriter <init> (Ljava/io/File;)V checkLast checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/PrintStream <init> (Ljava/lang/String;)V checkLast checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintStream <init> (Ljava/io/File;)V checkLast checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/FileWriter <init> (Ljava/lang/String;Ljava/nio/charset/Charset;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/FileWriter <init> (Ljava/io/File;Ljava/nio/charset/Charset;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/FileWriter <init> (Ljava/lang/String;Ljava/nio/charset/Charset;Z)V deny denyFileWrite ()V",
        "special java/io/FileWriter <init> (Ljava/io/File;Ljava/nio/charset/Charset;Z)V deny denyFileWrite ()V",
        "special java/io/PrintWriter <init> (Ljava/lang/String;Ljava/lang/String;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintWriter <init> (Ljava/io/File;Ljava/lang/String;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/PrintWriter <init> (Ljava/lang/String;Ljava/nio/charset/Charset;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintWriter <init> (Ljava/io/File;Ljava/nio/charset/Charset;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/PrintStream <init> (Ljava/lang/String;Ljava/lang/String;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintStream <init> (Ljava/io/File;Ljava/lang/String;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/io/PrintStream <init> (Ljava/lang/String;Ljava/nio/charset/Charset;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/io/PrintStream <init> (Ljava/io/File;Ljava/nio/charset/Charset;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/util/Formatter <init> (Ljava/lang/String;)V checkLast checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/util/Formatter <init> (Ljava/io/File;)V checkLast checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/util/Formatter <init> (Ljava/lang/String;Ljava/lang/String;)V checkUnderTop checkWritePath (Ljava/lang/String;)Ljava/lang/String;",
        "special java/util/Formatter <init> (Ljava/io/File;Ljava/lang/String;)V checkUnderTop checkWriteFile (Ljava/io/File;)Ljava/io/File;",
        "special java/util/Formatter <init> (Ljava/lang/String;Ljava/lang/String;Ljava/util/Locale;)V deny denyFileWrite ()V",
        "special java/util/Formatter <init> (Ljava/io/File;Ljava/lang/String;Ljava/util/Locale;)V deny denyFileWrite ()V",
        "special java/util/Formatter <init> (Ljava/lang/String;Ljava/nio/charset/Charset;Ljava/util/Locale;)V deny denyFileWrite ()V",
        "special java/util/Formatter <init> (Ljava/io/File;Ljava/nio/charset/Charset;Ljava/util/Locale;)V deny denyFileWrite ()V",
        "special java/util/zip/ZipFile <init> (Ljava/io/File;I)V checkLast checkZipOpenMode (I)I",
        "special java/util/zip/ZipFile <init> (Ljava/io/File;ILjava/nio/charset/Charset;)V checkUnderTop checkZipOpenMode (I)I",
        "special java/util/jar/JarFile <init> (Ljava/io/File;ZI)V checkLast checkZipOpenMode (I)I",
        "special java/util/jar/JarFile <init> (Ljava/io/File;ZILjava/lang/Runtime$Version;)V checkUnderTop checkZipOpenMode (I)I",
        "special java/io/RandomAccessFile <init> (Ljava/lang/String;Ljava/lang/String;)V deny denyFileWrite ()V",
        "special java/io/RandomAccessFile <init> (Ljava/io/File;Ljava/lang/String;)V deny denyFileWrite ()V",
        "static java/nio/file/Files delete (Ljava/nio/file/Path;)V replace filesDelete (Ljava/nio/file/Path;)V",
        "static java/nio/file/Files deleteIfExists (Ljava/nio/file/Path;)Z replace filesDeleteIfExists (Ljava/nio/file/Path;)Z",
        "static java/nio/file/Files write (Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path; replace filesWrite (Ljava/nio/file/Path;[B[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "static java/nio/file/Files createFile (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateFile (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files write (Ljava/nio/file/Path;Ljava/lang/Iterable;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path; replace filesWrite (Ljava/nio/file/Path;Ljava/lang/Iterable;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "static java/nio/file/Files write (Ljava/nio/file/Path;Ljava/lang/Iterable;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path; replace filesWrite (Ljava/nio/file/Path;Ljava/lang/Iterable;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/nio/file/Path;",
        "static java/nio/file/Files newBufferedWriter (Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter; replace filesNewBufferedWriter (Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
        "static java/nio/file/Files newBufferedWriter (Ljava/nio/file/Path;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter; replace filesNewBufferedWriter (Ljava/nio/file/Path;Ljava/nio/charset/Charset;[Ljava/nio/file/OpenOption;)Ljava/io/BufferedWriter;",
        "static java/nio/file/Files createDirectory (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateDirectory (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files createDirectories (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path; replace filesCreateDirectories (Ljava/nio/file/Path;[Ljava/nio/file/attribute/FileAttribute;)Ljava/nio/file/Path;",
        "static java/nio/file/Files move (Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path; replace filesMove (Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
        "static java/nio/file/Files copy (Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path; replace filesCopy (Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)Ljava/nio/file/Path;",
        "static java/nio/file/Files newOutputStream (Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/OutputStream; replace filesNewOutputStream (Ljava/nio/file/Path;[Ljava/nio/file/OpenOption;)Ljava/io/OutputStream;",
        "virtual java/net/Socket connect (Ljava/net/SocketAddress;)V replace socketConnect (Ljava/net/Socket;Ljava/net/SocketAddress;)V",
        "virtual java/net/Socket connect (Ljava/net/SocketAddress;I)V replace socketConnect (Ljava/net/Socket;Ljava/net/SocketAddress;I)V",
        "special java/net/Socket <init> (Ljava/lang/String;I)V deny denyNetwork ()V",
        "special java/net/Socket <init> (Ljava/net/InetAddress;I)V deny denyNetwork ()V",
        "special java/net/ServerSocket <init> (I)V deny denyNetwork ()V",
        "virtual java/net/URL openConnection ()Ljava/net/URLConnection; replace urlOpenConnection (Ljava/net/URL;)Ljava/net/URLConnection;",
        "virtual java/net/URL openStream ()Ljava/io/InputStream; replace urlOpenStream (Ljava/net/URL;)Ljava/io/InputStream;",
        "virtual java/lang/reflect/Method invoke (Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object; replace methodInvoke (Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
        "virtual java/lang/reflect/Constructor newInstance ([Ljava/lang/Object;)Ljava/lang/Object; replace constructorNewInstance (Ljava/lang/reflect/Constructor;[Ljava/lang/Object;)Ljava/lang/Object;",
        "virtual java/lang/invoke/MethodHandles$Lookup findStatic (Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle; replace lookupFindStatic (Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "virtual java/lang/invoke/MethodHandles$Lookup findVirtual (Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle; replace lookupFindVirtual (Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "virtual java/lang/invoke/MethodHandles$Lookup findConstructor (Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle; replace lookupFindConstructor (Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        "virtual java/lang/invoke/MethodHandles$Lookup unreflect (Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle; replace lookupUnreflect (Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;",
        "virtual java/lang/invoke/MethodHandles$Lookup unreflectConstructor (Ljava/lang/reflect/Constructor;)Ljava/lang/invoke/MethodHandle; replace lookupUnreflectConstructor (Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/reflect/Constructor;)Ljava/lang/invoke/MethodHandle;",
    };

    /** One parsed line of {@link #TABLE}. */
    static final class Entry {
        final String opcode;
        final String owner; // binary name, with dots
        final String name;
        final String descriptor;
        final String action;
        final String guard;
        final String guardDescriptor;
        final String newDescriptor;
        private volatile MethodHandle guardHandle;

        Entry(String line) {
            String[] f = line.split(" ");
            opcode = f[0];
            owner = f[1].replace('/', '.');
            name = f[2];
            descriptor = f[3];
            action = f[4];
            guard = f[5];
            guardDescriptor = f[6];
            newDescriptor = f.length > 7 ? f[7] : null;
        }

        /** The guard as a handle of its own type. */
        MethodHandle guard() throws NoSuchMethodException, IllegalAccessException {
            MethodHandle h = guardHandle;
            if (h == null) {
                MethodType t = MethodType.fromMethodDescriptorString(guardDescriptor, Guards.class.getClassLoader());
                h = MethodHandles.publicLookup().findStatic(Guards.class, guard, t);
                guardHandle = h;
            }
            return h;
        }
    }

    /** The entries by owner: a class not here is looked at no further (the common case). */
    private static final Map<String, List<Entry>> BY_OWNER = new HashMap<String, List<Entry>>();

    static {
        for (String line : TABLE) {
            Entry e = new Entry(line);
            List<Entry> l = BY_OWNER.get(e.owner);
            if (l == null) {
                l = new ArrayList<Entry>();
                BY_OWNER.put(e.owner, l);
            }
            l.add(e);
        }
    }

    /** The entry for a call of {@code opcode} to {@code owner.name descriptor}, or null. */
    static Entry find(String opcode, Class<?> owner, String name, String descriptor) {
        if (owner == null) return null;
        List<Entry> l = BY_OWNER.get(owner.getName());
        if (l == null) return null;
        for (Entry e : l) {
            if (e.opcode.equals(opcode) && e.name.equals(name) && e.descriptor.equals(descriptor)) return e;
        }
        return null;
    }

    /** For a virtual lookup: the entry of {@code c} or of the redirected class it extends. */
    static Entry findVirtual(Class<?> c, String name, String descriptor) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Entry e = find("virtual", k, name, descriptor);
            if (e != null) return e;
        }
        return null;
    }

    static Entry forMethod(Method m) {
        String opcode = Modifier.isStatic(m.getModifiers()) ? "static" : "virtual";
        if (BY_OWNER.get(m.getDeclaringClass().getName()) == null) return null;
        return find(opcode, m.getDeclaringClass(), m.getName(), descriptor(m.getParameterTypes(), m.getReturnType()));
    }

    static Entry forConstructor(Constructor<?> k) {
        if (BY_OWNER.get(k.getDeclaringClass().getName()) == null) return null;
        return find("special", k.getDeclaringClass(), "<init>", descriptor(k.getParameterTypes(), void.class));
    }

    static String descriptor(Class<?>[] params, Class<?> ret) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> p : params) b.append(descriptor(p));
        return b.append(')').append(descriptor(ret)).toString();
    }

    static String descriptor(Class<?> c) {
        if (c.isArray()) return c.getName().replace('.', '/');
        if (c == void.class) return "V";
        if (c == boolean.class) return "Z";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == short.class) return "S";
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == float.class) return "F";
        if (c == double.class) return "D";
        return "L" + c.getName().replace('.', '/') + ";";
    }

    // ---------------------------------------------------------------------------------------------
    // Method.invoke and Constructor.newInstance.

    static Object invoke(Method m, Object recv, Object[] args)
        throws IllegalAccessException, InvocationTargetException {
        Entry e = forMethod(m);
        if (e == null) return invokeAsCaller(m, recv, args);
        Object[] a = args == null ? new Object[0] : args;
        // Wrong arguments: the JDK's IllegalArgumentException, before the guard could be blamed.
        if (!argsFit(m.getParameterTypes(), a)) return m.invoke(recv, args);
        Object[] guardArgs = a;
        if (!Modifier.isStatic(m.getModifiers())) {
            if (recv == null) throw new NullPointerException();
            if (!m.getDeclaringClass().isInstance(recv)) {
                throw new IllegalArgumentException("object is not an instance of declaring class");
            }
            guardArgs = new Object[a.length + 1];
            guardArgs[0] = recv;
            System.arraycopy(a, 0, guardArgs, 1, a.length);
        }
        try {
            return e.guard().invokeWithArguments(guardArgs);
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException(impossible); // the rt-abi test checks every guard exists
        } catch (Throwable t) {
            throw new InvocationTargetException(t); // as the target's own exception
        }
    }

    /** Whether {@code a} fits {@code params} without conversion (a primitive needs its exact box). */
    static boolean argsFit(Class<?>[] params, Object[] a) {
        if (a.length != params.length) return false;
        for (int i = 0; i < a.length; i++) {
            Class<?> p = params[i];
            if (p.isPrimitive()) {
                if (a[i] == null || MethodType.methodType(p).wrap().returnType() != a[i].getClass()) return false;
            } else if (a[i] != null && !p.isInstance(a[i])) {
                return false;
            }
        }
        return true;
    }

    static Object newInstance(Constructor<?> k, Object[] args)
        throws InstantiationException, IllegalAccessException, InvocationTargetException {
        Entry e = forConstructor(k);
        if (e == null) return newInstanceAsCaller(k, args);
        Object[] a = args == null ? new Object[0] : args.clone();
        int n = a.length;
        if (!argsFit(k.getParameterTypes(), a)) return k.newInstance(args); // the JDK's IllegalArgumentException
        try {
            if (e.action.equals("checkLast")) {
                a[n - 1] = e.guard().invokeWithArguments(a[n - 1]);
            } else if (e.action.equals("checkUnderTop")) {
                a[n - 2] = e.guard().invokeWithArguments(a[n - 2]);
            } else if (e.action.equals("deny")) {
                e.guard().invokeWithArguments();
            } else if (e.action.equals("push")) {
                // `new Random()` becomes `new Random(seed)`: the guard's value is the last argument.
                Object[] b = new Object[n + 1];
                System.arraycopy(a, 0, b, 0, n);
                b[n] = e.guard().invokeWithArguments();
                MethodType t = MethodType.fromMethodDescriptorString(e.newDescriptor, Guards.class.getClassLoader());
                k = k.getDeclaringClass().getConstructor(t.parameterArray());
                a = b;
            }
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException(impossible);
        } catch (Throwable t) {
            throw new InvocationTargetException(t); // the guard refused: as the constructor's own exception
        }
        return k.newInstance(a);
    }

    private static Object invokeAsCaller(Method m, Object recv, Object[] args)
        throws IllegalAccessException, InvocationTargetException {
        try {
            return m.invoke(recv, args);
        } catch (IllegalAccessException denied) {
            String caller = callerName();
            if (caller == null || !callerMay(caller, m)) throw asCaller(denied, caller);
            Method copy;
            try {
                copy = m.getDeclaringClass().getDeclaredMethod(m.getName(), m.getParameterTypes());
                copy.setAccessible(true);
            } catch (NoSuchMethodException | RuntimeException e) {
                throw asCaller(denied, caller);
            }
            return copy.invoke(recv, args);
        }
    }

    private static Object newInstanceAsCaller(Constructor<?> k, Object[] args)
        throws InstantiationException, IllegalAccessException, InvocationTargetException {
        try {
            return k.newInstance(args);
        } catch (IllegalAccessException denied) {
            String caller = callerName();
            if (caller == null || !callerMay(caller, k)) throw asCaller(denied, caller);
            Constructor<?> copy;
            try {
                copy = k.getDeclaringClass().getDeclaredConstructor(k.getParameterTypes());
                copy.setAccessible(true);
            } catch (NoSuchMethodException | RuntimeException e) {
                throw asCaller(denied, caller);
            }
            return copy.newInstance(args);
        }
    }

    /** The JDK's exception, naming the real caller instead of Guards. */
    private static IllegalAccessException asCaller(IllegalAccessException e, String caller) {
        String m = e.getMessage();
        if (caller == null || m == null || !m.contains(Guards.class.getName())) return e;
        IllegalAccessException named = new IllegalAccessException(m.replace(Guards.class.getName(), caller));
        named.setStackTrace(e.getStackTrace());
        return named;
    }

    /** The class that called the redirected method: the first frame outside this package's guards. */
    private static String callerName() {
        StackTraceElement[] st = new Throwable().getStackTrace();
        for (StackTraceElement f : st) {
            String c = f.getClassName();
            if (!c.equals(Reflective.class.getName()) && !c.equals(Guards.class.getName())) return c;
        }
        return null;
    }

    /**
     * The JDK's access rule (JLS 6.6, with nestmates) for a member of a non-public class or a
     * non-public member, by names: a private member from the same top-level class; a package or
     * protected one from the same package (a protected one also from a subclass, which the JDK
     * allows for a receiver of the caller's type; the caller's own class is not at hand here, so a
     * subclass elsewhere stays refused).
     */
    static boolean callerMay(String caller, Member m) {
        String declaring = m.getDeclaringClass().getName();
        int mods = m.getModifiers();
        if (Modifier.isPrivate(mods)) return topLevel(caller).equals(topLevel(declaring));
        return packageOf(caller).equals(packageOf(declaring));
    }

    private static String topLevel(String name) {
        int dollar = name.indexOf('$', name.lastIndexOf('.') + 1);
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    private static String packageOf(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    // ---------------------------------------------------------------------------------------------
    // Method handles.

    static MethodHandle findStatic(MethodHandles.Lookup l, Class<?> c, String name, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        MethodHandle original = l.findStatic(c, name, t); // the JDK's checks and errors first
        Entry e = find("static", c, name, t.toMethodDescriptorString());
        return e == null ? original : e.guard().asType(original.type());
    }

    static MethodHandle findVirtual(MethodHandles.Lookup l, Class<?> c, String name, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        MethodHandle original = l.findVirtual(c, name, t);
        Entry e = c.isInterface() ? null : findVirtual(c, name, t.toMethodDescriptorString());
        return e == null ? original : e.guard().asType(original.type());
    }

    static MethodHandle findConstructor(MethodHandles.Lookup l, Class<?> c, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        MethodHandle original = l.findConstructor(c, t);
        Entry e = find("special", c, "<init>", t.toMethodDescriptorString());
        return e == null ? original : guardedConstructor(l, c, e, original);
    }

    static MethodHandle unreflect(MethodHandles.Lookup l, Method m) throws IllegalAccessException {
        MethodHandle original = l.unreflect(m);
        Entry e = forMethod(m);
        if (e == null) return original;
        try {
            return e.guard().asType(original.type());
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    static MethodHandle unreflectConstructor(MethodHandles.Lookup l, Constructor<?> k) throws IllegalAccessException {
        MethodHandle original = l.unreflectConstructor(k);
        Entry e = forConstructor(k);
        if (e == null) return original;
        try {
            return guardedConstructor(l, k.getDeclaringClass(), e, original);
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** A constructor handle that runs the guard as the instrumented `new` would. */
    private static MethodHandle guardedConstructor(MethodHandles.Lookup l, Class<?> c, Entry e, MethodHandle original)
        throws NoSuchMethodException, IllegalAccessException {
        int n = original.type().parameterCount();
        MethodHandle g = e.guard();
        if (e.action.equals("checkLast")) return MethodHandles.filterArguments(original, n - 1, g);
        if (e.action.equals("checkUnderTop")) return MethodHandles.filterArguments(original, n - 2, g);
        if (e.action.equals("deny")) return MethodHandles.foldArguments(original, g);
        if (e.action.equals("push")) {
            MethodType t = MethodType.fromMethodDescriptorString(e.newDescriptor, Guards.class.getClassLoader());
            MethodHandle retargeted = l.findConstructor(c, t);
            return MethodHandles.collectArguments(retargeted, n, g);
        }
        return original;
    }
}
