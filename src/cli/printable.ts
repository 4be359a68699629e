/** Text from outside (a file's bytes, a path, an argument) as the command shows it on a terminal. */

/** `text` with control characters (a hostile robots.txt could hold terminal escapes) shown as `\xNN`. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** One line on stderr that does not stop the run: `robotstxt: note: …`, its text made printable. */
export function note(text: string): void {
  process.stderr.write(`robotstxt: note: ${printable(text)}\n`);
}
