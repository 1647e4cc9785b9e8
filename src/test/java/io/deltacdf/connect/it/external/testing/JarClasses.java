package io.deltacdf.connect.it.external.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Type;

/**
 * The classes jars define and the classes their bytecode references, read from the constant pool as
 * the JVM links them: every class constant (super types, owners of called methods and read fields,
 * instantiated and cast types) and every type in a called method's or read field's descriptor.
 * Annotations are not references: the JVM skips annotation types it cannot load.
 */
public final class JarClasses {

  private static final int CONSTANT_CLASS = 7;
  private static final int CONSTANT_NAME_AND_TYPE = 12;
  private static final int CONSTANT_METHOD_TYPE = 16;
  private static final String VERSIONS = "META-INF/versions/";

  private JarClasses() {}

  /** Internal names ({@code java/lang/String}) of the classes {@code jar} defines. */
  public static Set<String> defined(Path jar) {
    Set<String> names = new HashSet<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        String className = className(e.nextElement().getName());
        if (className != null) {
          names.add(className);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(jar.toString(), e);
    }
    return names;
  }

  /** Internal names of every class of the running JDK's modules. */
  public static Set<String> jdk() {
    Set<String> names = new HashSet<>();
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> files = Files.walk(jrt.getPath("/modules"))) {
      files.forEach(
          file -> {
            // /modules/<module>/<package path>/<Name>.class
            String path = file.toString();
            if (path.endsWith(".class") && file.getNameCount() > 2) {
              names.add(file.subpath(2, file.getNameCount()).toString().replace(".class", ""));
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }

  /**
   * For each class {@code jar} defines, the classes it references (arrays resolved to their element
   * type, primitives left out). Multi-release entries for a newer Java than the running one are
   * skipped: this JVM would not load them.
   */
  public static Map<String, Set<String>> references(Path jar) {
    Map<String, Set<String>> references = new HashMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        String className = className(entry.getName());
        if (className != null) {
          try (InputStream in = file.getInputStream(entry)) {
            references
                .computeIfAbsent(className, c -> new TreeSet<>())
                .addAll(referencedBy(new ClassReader(in)));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(jar.toString(), e);
    }
    return references;
  }

  private static Set<String> referencedBy(ClassReader reader) {
    Set<String> names = new HashSet<>();
    char[] buffer = new char[reader.getMaxStringLength()];
    for (int i = 1; i < reader.getItemCount(); i++) {
      int offset = reader.getItem(i); // just after the tag; 0 for the 2nd slot of long/double
      if (offset == 0) {
        continue;
      }
      switch (reader.readByte(offset - 1)) {
        case CONSTANT_CLASS -> addType(names, reader.readUTF8(offset, buffer));
        case CONSTANT_NAME_AND_TYPE -> addDescriptor(names, reader.readUTF8(offset + 2, buffer));
        case CONSTANT_METHOD_TYPE -> addDescriptor(names, reader.readUTF8(offset, buffer));
        default -> {}
      }
    }
    return names;
  }

  /** A class constant: an internal name, or an array descriptor. */
  private static void addType(Set<String> names, String constant) {
    if (constant.startsWith("[")) {
      addDescriptor(names, constant);
    } else {
      names.add(constant);
    }
  }

  private static void addDescriptor(Set<String> names, String descriptor) {
    if (descriptor.startsWith("(")) {
      Type method = Type.getMethodType(descriptor);
      addClass(names, method.getReturnType());
      for (Type argument : method.getArgumentTypes()) {
        addClass(names, argument);
      }
    } else {
      addClass(names, Type.getType(descriptor));
    }
  }

  private static void addClass(Set<String> names, Type type) {
    Type element = type.getSort() == Type.ARRAY ? type.getElementType() : type;
    if (element.getSort() == Type.OBJECT) {
      names.add(element.getInternalName());
    }
  }

  /**
   * The internal name an entry defines, or null: not a class, a module or package descriptor, or a
   * multi-release class for a newer Java than this one.
   */
  private static String className(String entry) {
    if (!entry.endsWith(".class")
        || entry.endsWith("module-info.class")
        || entry.endsWith("package-info.class")) {
      return null;
    }
    String path = entry;
    if (path.startsWith(VERSIONS)) {
      int slash = path.indexOf('/', VERSIONS.length());
      int release = Integer.parseInt(path.substring(VERSIONS.length(), slash));
      if (release > Runtime.version().feature()) {
        return null;
      }
      path = path.substring(slash + 1);
    }
    return path.substring(0, path.length() - ".class".length());
  }
}
