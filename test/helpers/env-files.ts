/** How systemd and Docker read an environment file, for the tests of deploy/ (docs/deployment.md). */

/**
 * EnvironmentFile= as systemd.exec(5) reads it: `#`/`;` comment lines, KEY=VALUE with blanks around
 * the key and value dropped, single quotes literal, double quotes with backslash escapes, a trailing
 * backslash joining the next line.
 */
export function parseSystemdEnvironmentFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.replace(/\\\n/g, '').split('\n');
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`systemd would ignore: ${line}`);
    const key = trimmed.slice(0, equals).trim();
    let value = trimmed.slice(equals + 1).trim();
    if (/^'[^']*'$/.test(value)) value = value.slice(1, -1);
    else if (/^"(?:[^"\\]|\\.)*"$/.test(value)) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (/["'\\]/.test(value)) throw new Error(`unbalanced quoting in: ${line}`);
    result[key] = value;
  }
  return result;
}

/**
 * `docker run --env-file` as Docker reads it: lines starting with `#` and blank lines skipped, the
 * name up to the first `=`, the rest of the line the value, quotes included.
 */
export function parseDockerEnvFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`docker would take ${line} from the host's environment`);
    result[trimmed.slice(0, equals)] = trimmed.slice(equals + 1);
  }
  return result;
}
