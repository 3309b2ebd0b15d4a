// The gate's preload for Node (NODE_OPTIONS=--require=<this file>): where GATE_JS_REPORT is
// set, every test that Jest, Vitest or Mocha runs in this process is sent to the gate (see
// write), and the runner's end with whether it failed. The test command is not edited.
// Anything that goes wrong here is swallowed: the preload must never change how tests run.
// What it sends is the gate's witness: the runner's printed summary, report files and exit
// status are held against it (gate/outcomes/node_witness.py).
'use strict';

(function gateReport() {
  const target = process.env.GATE_JS_REPORT;
  if (!target) return;
  const fs = require('fs');
  const crypto = require('crypto');
  const Module = require('module');
  const MARK = Symbol.for('gate.report.patched');
  let thread = 0;
  try { thread = require('worker_threads').threadId; } catch (e) { /* */ }

  // Sent as it happens on the gate's evidence channel (GATE_EVIDENCE, a FIFO the gate reads
  // while the tests run), a record a write so that none is interleaved with another
  // process's: {k: 'node', p: this process and thread, d: the record as JSON text, h: the
  // digest of every record this thread sent so far, d included}. A line that is not in its
  // thread's chain was not sent by the preload. Without a channel, appended to the report file.
  const channel = process.env.GATE_EVIDENCE;
  const stream = `${process.pid}.${thread}`;
  let digest = '';
  let count = 0;
  function write(records) {
    if (!records.length) return;
    try {
      if (channel) {
        const fd = fs.openSync(channel, fs.constants.O_WRONLY);
        try {
          for (const r of records) {
            const d = JSON.stringify(r);
            digest = crypto.createHash('sha256').update(digest + d, 'utf8').digest('hex');
            count += 1;
            fs.writeSync(fd, JSON.stringify({ k: 'node', p: stream, d, h: digest }) + '\n');
          }
        } finally { fs.closeSync(fd); }
        return;
      }
      const text = records.filter((r) => r.t === 'case')
        .map(({ t, ...r }) => JSON.stringify(r)).join('\n');
      if (!text) return;
      const fd = fs.openSync(target, 'a');
      try { fs.writeSync(fd, text + '\n'); } finally { fs.closeSync(fd); }
    } catch (e) { /* the gate says the witness is missing */ }
  }
  // The runner's end in this process: how many records this thread sent, and whether the
  // run failed as the runner itself counts it (its exit status).
  const ended = new Set();
  function end(runner, failed) {
    if (ended.has(runner)) return;
    ended.add(runner);
    write([{ t: 'end', runner, failed: !!failed, count }]);
  }

  function text(value) {
    return typeof value === 'string' ? value.split('\n').slice(0, 4).join('\n').slice(0, 400) : '';
  }

  // Jest: the SummaryReporter's onRunComplete has every file's results (from every worker).
  const JEST_OUTCOMES = { passed: 'passed', failed: 'failed', pending: 'skipped',
                          skipped: 'skipped', todo: 'skipped', disabled: 'skipped' };
  function patchJest(reporters) {
    const proto = reporters.SummaryReporter && reporters.SummaryReporter.prototype;
    if (!proto || typeof proto.onRunComplete !== 'function' || proto[MARK]) return;
    proto[MARK] = true;
    const original = proto.onRunComplete;
    proto.onRunComplete = function onRunComplete(...args) {
      try {
        const results = args.find((a) => a && Array.isArray(a.testResults) &&
                                          typeof a.numTotalTests === 'number');
        const records = [];
        for (const file of (results ? results.testResults : [])) {
          for (const t of file.testResults || []) {
            records.push({ t: 'case', runner: 'jest', file: file.testFilePath,
                           name: [...(t.ancestorTitles || []), t.title].join(' > '),
                           outcome: JEST_OUTCOMES[t.status] || t.status,
                           seconds: typeof t.duration === 'number' ? t.duration / 1000 : null,
                           message: text((t.failureMessages || [])[0]) });
          }
        }
        write(records);
        end('jest', results && results.success === false);
      } catch (e) { /* summary only */ }
      return original.apply(this, args);
    };
  }

  // Mocha: the Runner's 'pass', 'fail' and 'pending' events, as its stats count them (in the
  // main process; a --parallel worker's events reach the main process's runner too).
  const MOCHA_OUTCOMES = { pass: 'passed', fail: 'failed', pending: 'skipped' };
  function patchMocha(Runner) {
    const proto = Runner.prototype;
    if (proto[MARK]) return;
    proto[MARK] = true;
    const original = proto.emit;
    proto.emit = function emit(event, ...args) {
      try {
        const outcome = MOCHA_OUTCOMES[event];
        const worker = /mocha[\\/]lib[\\/]nodejs[\\/]worker\.js$/.test(process.argv[1] || '');
        if (outcome && !worker && args[0]) {
          const test = args[0];
          const path = typeof test.titlePath === 'function' ? test.titlePath() : [test.title];
          const err = args[1];
          write([{ t: 'case', runner: 'mocha', file: test.file || null, name: path.join(' > '), outcome,
                   seconds: typeof test.duration === 'number' ? test.duration / 1000 : null,
                   message: outcome === 'failed' && err ? text(String(err.message || err)) : '' }]);
        }
        if (event === 'start') quiet();
        if (event === 'end' && !worker) {
          end('mocha', this.stats ? this.stats.failures > 0 : this.failures > 0);
        }
      } catch (e) { /* summary only */ }
      return original.call(this, event, ...args);
    };
  }

  // Once this process runs tests, what they start is not the run's: a runner a test starts
  // (a plugin's own tests run Vitest on fixtures) must not send its tests as the run's.
  function quiet() { delete process.env.GATE_JS_REPORT; }

  // What the runner loads of the checkout, beside its tests and the code they import: its
  // configuration under any name (a file required by the runner's own code, outside
  // node_modules, and what that file requires in turn; the files Vite bundles into its
  // config), setup files (Vitest's, and what Jest's runtime loads at the top: setup files
  // and test files), reporters, environments, transformers. {t: 'load', role, file, by}.
  const checkout = process.env.GATE_CHECKOUT || '';
  const roots = [checkout];
  try { roots.push(fs.realpathSync(checkout)); } catch (e) { /* */ }
  const inCheckout = (file) => !!checkout && typeof file === 'string' &&
    roots.some((r) => file.startsWith(r + '/')) && !file.includes('/node_modules/');
  const loaded = new Set();
  function saw(role, file, by) {
    if (!inCheckout(file) || loaded.has(role + file)) return;
    loaded.add(role + file);
    write([{ t: 'load', role, file, by: String(by || '').slice(0, 300) }]);
  }
  const configs = new Set();
  function required(request, parent, isMain) {
    const from = (parent && parent.filename) || '';
    const byRunner = from !== '' && (!inCheckout(from) || from.includes('/node_modules/'));
    if (!(byRunner && request[0] === '/') && !(configs.has(from) && request[0] === '.')) return;
    const file = Module._resolveFilename(request, parent, isMain);
    if (inCheckout(file)) {
      configs.add(file);
      saw('config', file, from);
    }
  }
  // Jest's runtime: a module loaded with no importer is a setup file, or the test file the
  // runtime was made for.
  function top(runtime, from, moduleName) {
    quiet();
    if (moduleName === undefined && from !== runtime._testPath) saw('setup', from, 'jest-runtime');
  }
  function patchJestRuntime(exported) {
    const Runtime = exported && (exported.default || exported);
    const proto = Runtime && Runtime.prototype;
    if (!proto || typeof proto.requireModule !== 'function' || proto[MARK]) return;
    proto[MARK] = true;
    const requireModule = proto.requireModule;
    proto.requireModule = function gateRequireModule(from, moduleName, ...rest) {
      try { top(this, from, moduleName); } catch (e) { /* */ }
      return requireModule.call(this, from, moduleName, ...rest);
    };
    const importModule = proto.unstable_importModule;
    if (typeof importModule === 'function') {
      proto.unstable_importModule = function gateImportModule(from, moduleName, ...rest) {
        try { top(this, from, moduleName); } catch (e) { /* */ }
        return importModule.call(this, from, moduleName, ...rest);
      };
    }
  }
  // Vite bundles an ESM config into a file of its own before importing it; the bundle's
  // inline source map lists every file bundled (the config and what it imports).
  const BUNDLED = /\.timestamp-\d+-[0-9a-f]+\.mjs$/;
  const MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;
  function bundled(path, data) {
    if (typeof path !== 'string' || !BUNDLED.test(path)) return;
    const m = MAP.exec(typeof data === 'string' ? data : String(data));
    if (!m) return;
    const map = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8'));
    const { fileURLToPath } = require('url');
    for (const source of map.sources || []) {
      const url = new URL(source, map.sourceRoot || undefined);
      if (url.protocol === 'file:') saw('config', fileURLToPath(url), 'vite');
    }
  }
  if (checkout) {
    const promises = fs.promises;
    const writeFile = promises.writeFile;
    promises.writeFile = function gateWriteFile(path, data, ...rest) {
      try { bundled(path, data); } catch (e) { /* */ }
      return writeFile.call(this, path, data, ...rest);
    };
  }

  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    try { // before the load: what the file requires in turn is then known as its
      if (checkout && typeof request === 'string') required(request, parent, isMain);
    } catch (e) { /* not found: the load says so */ }
    const exported = originalLoad.apply(this, arguments);
    try {
      if (request === 'jest-runtime' && exported) patchJestRuntime(exported);
      if (request === '@jest/reporters' && exported) {
        patchJest(exported);
      } else if (typeof exported === 'function' && exported.constants &&
                 exported.constants.EVENT_TEST_PASS === 'pass' &&
                 exported.constants.EVENT_RUN_END === 'end' && exported.prototype &&
                 typeof exported.prototype.runTests === 'function') {
        patchMocha(exported);
      }
    } catch (e) { /* summary only */ }
    return exported;
  };

  // Vitest (ESM, tests in worker processes): each worker's state is put on globalThis as
  // __vitest_worker__; its rpc carries the collected tests and their results to the main
  // process, and is read on the way.
  // Vitest's main process sets VITEST itself (its workers inherit it): its end is sent as
  // the process exits, with the exit status Vitest chose.
  // gate: allow harness -- the gate's own preload must know it runs in a Vitest worker
  const inherited = !!process.env.VITEST;
  process.on('exit', (code) => {
    // gate: allow harness -- the gate's own preload must know it runs in Vitest's main process
    if (!inherited && process.env.VITEST && thread === 0) {
      end('vitest', (code || process.exitCode || 0) !== 0);
    }
  });
  if (inherited) {
    const tasks = new Map(); // test id -> {file, name}
    const collect = (files) => {
      const walk = (task, file, path) => {
        for (const child of task.tasks || []) {
          const here = [...path, child.name];
          if (child.type === 'suite') walk(child, file, here);
          else tasks.set(child.id, { file, name: here.join(' > '), mode: child.mode });
        }
      };
      for (const f of files || []) walk(f, f.filepath, []);
    };
    const VITEST_OUTCOMES = { pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'skipped' };
    const update = (packs, events) => {
      const finished = new Set((events || []).filter((e) => e[1] === 'test-finished')
        .map((e) => e[0]));
      const records = [];
      for (const pack of packs || []) {
        const task = tasks.get(pack[0]);
        const result = pack[1];
        // a test skipped by its mode (it.skip, it.todo) finishes with no result
        const outcome = result ? VITEST_OUTCOMES[result.state]
          : (task && finished.has(pack[0]) ? VITEST_OUTCOMES[task.mode] : undefined);
        if (task && outcome) {
          const error = ((result && result.errors) || [])[0];
          records.push({ t: 'case', runner: 'vitest', id: pack[0], file: task.file, name: task.name,
                         outcome,
                         seconds: result && typeof result.duration === 'number' ? result.duration / 1000 : null,
                         message: outcome === 'failed' && error ? text(String(error.message || '')) : '' });
        }
      }
      write(records);
    };
    const wrap = (state) => {
      if (!state || !state.rpc || state[MARK]) return;
      const rpc = state.rpc;
      state[MARK] = true;
      quiet();
      try {
        for (const file of (state.config && state.config.setupFiles) || []) {
          saw('setup', file, 'vitest');
        }
      } catch (e) { /* */ }
      state.rpc = new Proxy(rpc, {
        get(target, key) {
          const value = target[key];
          if (key === 'onCollected' && typeof value === 'function') {
            return (files, ...rest) => { try { collect(files); } catch (e) { /* */ }
                                         return value.call(target, files, ...rest); };
          }
          if (key === 'onTaskUpdate' && typeof value === 'function') {
            return (packs, events, ...rest) => {
              try { update(packs, events); } catch (e) { /* */ }
              return value.call(target, packs, events, ...rest);
            };
          }
          return value;
        },
      });
    };
    const defineProperty = Object.defineProperty;
    Object.defineProperty = function gateDefineProperty(object, key, descriptor) {
      if (key === '__vitest_worker__' && descriptor && 'value' in descriptor) {
        try { wrap(descriptor.value); } catch (e) { /* summary only */ }
      }
      return defineProperty(object, key, descriptor);
    };
  }
})();
