/* Kiln's version: the one definition. CMakeLists.txt reads the project
 * version from this line, model libraries record it (`kiln VERSION`) and
 * the runtime loads only libraries of its own version. */
#ifndef KILN_VERSION_H
#define KILN_VERSION_H

#define KILN_VERSION_STRING "0.1.0"

#endif
