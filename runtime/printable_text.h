/* Text from files Kiln did not write (a model's node names, an npy
 * header, a tensor's name) quoted in a message: every byte that is not
 * printable ASCII, a tab or a newline, or part of well-formed UTF-8 is
 * written as \xNN, so a damaged or hostile file cannot put terminal
 * control sequences (ESC, carriage returns, backspaces) or broken UTF-8 on
 * the user's terminal. Newlines stay: compiler diagnostics print IR over
 * several lines. The result made printable again is itself, so a message
 * wrapped in another keeps its escapes as they are. libc only: part of
 * libkiln_runtime and of the compiler's tools. */
#ifndef KILN_RUNTIME_PRINTABLE_TEXT_H
#define KILN_RUNTIME_PRINTABLE_TEXT_H

/// A printable copy of the NUL-terminated `text` (release with free).
char *kilnPrintableTextCreate(const char *text);

#endif
