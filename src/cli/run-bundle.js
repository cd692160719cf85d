// docs/performance.md ("What a start loads"): runs the CommonJS bundle `leadgate build` wrote with V8's code cache.
// Parsing the ~4 MB bundle and compiling the functions a start calls was a fifth of a later start; Node 20 keeps no
// compile cache for ES modules (module.enableCompileCache is Node 22), but vm.Script takes V8's `cachedData`.
// Plain JavaScript, like fresh-bundle.js: bin/leadgate.js loads it before anything is compiled.
import { createHash } from 'node:crypto';
import { Buffer, isAscii } from 'node:buffer';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import { constants, Script } from 'node:vm';

/** How long after the start the cache is written: the functions a start runs are compiled by then. */
const WRITE_CACHE_AFTER_MS = 3000;

/**
 * V8 rejects a cache made by another V8 or with other flags (`serve` runs with heap flags, other
 * commands without): one cache per node version and command-line flags, so they never undo each other.
 * V8 checks the source only by its length: the bundle's modification time is in the key too, so a
 * bundle edited in place never runs with the code of its former self.
 */
function cacheFileOf(file) {
  const { mtimeMs, size } = statSync(file);
  const key = createHash('sha256')
    .update(`${process.version}\0${mtimeMs}\0${size}\0${process.execArgv.join('\0')}`)
    .digest('hex')
    .slice(0, 16);
  return `${file}.${key}.v8-cache`;
}

function readCache(cacheFile) {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/**
 * Written once, when there was no cache or V8 rejected it: `writeCacheAfterMs` after the start (a
 * timer that does not keep the process alive), or when the process exits before that (a short
 * command, a server stopped at once), whichever comes first. A folder the process may not write
 * (a read-only image) only means starts without the cache: nothing to report.
 */
function writeCacheOnce(script, cacheFile, afterMs) {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    const partial = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, cacheFile);
    } catch {
      rmSync(partial, { force: true });
    }
  };
  setTimeout(write, afterMs).unref();
  process.once('exit', write);
}

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_END = '\n})';

/**
 * The bundle wrapped as Node wraps a CommonJS file, read into one buffer and turned into one string.
 * Reading it as UTF-8 and wrapping it by concatenation made three 4 MB copies (~55 ms of a start on
 * this machine, where fresh memory is dear: docs/performance.md, "What a start loads"). esbuild
 * writes ASCII (its default charset; test/cli/bundle-cli.test.ts checks it), whose Latin-1 reading
 * is the same text; anything else is read as UTF-8.
 */
function wrappedSource(file) {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    const bytes = Buffer.allocUnsafe(WRAPPER_START.length + size + WRAPPER_END.length);
    bytes.write(WRAPPER_START, 0, 'latin1');
    let read = 0;
    while (read < size) {
      const got = readSync(fd, bytes, WRAPPER_START.length + read, size - read, read);
      if (got === 0) break;
      read += got;
    }
    const wrapped = bytes.subarray(0, WRAPPER_START.length + read + WRAPPER_END.length);
    wrapped.write(WRAPPER_END, WRAPPER_START.length + read, 'latin1');
    return wrapped.toString(isAscii(wrapped) ? 'latin1' : 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Runs the bundle at `url` as Node runs a CommonJS file, with its code cache when there is one. */
export function runBundle(url, writeCacheAfterMs = WRITE_CACHE_AFTER_MS) {
  const file = fileURLToPath(url);
  const cacheFile = cacheFileOf(file);
  const cachedData = readCache(cacheFile);
  const script = new Script(wrappedSource(file), {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected)
    writeCacheOnce(script, cacheFile, writeCacheAfterMs);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}
