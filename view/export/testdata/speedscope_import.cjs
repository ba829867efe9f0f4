// Imports trace-event files with speedscope's own importer, as its web
// app does when a file is dropped on it, and prints for each file one JSON
// line: how many profiles (one per thread with slices) it made, their
// names, and every warning the importer gave (a slice it could not end, a
// slice still open at the end of the profile, ...).
//
// usage: node speedscope_import.cjs DIR/node_modules/speedscope FILE...
//
// speedscope ships as one bundle for the browser, with no API for node.
// Its last statement mounts the app; this replaces that statement with
// one that hands out the importer the app calls for a trace-event file,
// and runs the bundle with the few browser globals its other top-level
// statements read. The statement is matched exactly, so another version
// of the bundle fails here, loudly, rather than being half-checked.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const [pkg, ...files] = process.argv.slice(2);
const dir = path.join(pkg, 'dist', 'release');
const bundle = fs.readdirSync(dir).find(f => /^speedscope-.*\.js$/.test(f));
if (!bundle) throw new Error(`no speedscope bundle in ${dir}`);
let src = fs.readFileSync(path.join(dir, bundle), 'utf8');
const mount = 'mo(C(Os,null,C(Rf,null)),document.body,document.body.lastElementChild||void 0);';
if (!src.includes(mount)) throw new Error(`the bundle ${bundle} is not the version this script knows`);
src = src.replace(mount, 'globalThis.__importTraceEvents=(t)=>{hf();return _f(t)};');

let warnings = [];
const record = (...a) => warnings.push(a.map(String).join(' '));
const ctx = {
  console: { log() {}, info() {}, debug() {}, warn: record, error: record },
  location: { hash: '', protocol: 'file:', search: '' },
  localStorage: {},
  matchMedia: () => ({ matches: false, addListener() {}, addEventListener() {} }),
  navigator: { userAgent: 'node', platform: 'node' },
  addEventListener() {},
  document: { addEventListener() {}, createElement: () => ({ getContext: () => null, style: {} }), body: {} },
  setTimeout, clearTimeout, requestAnimationFrame: () => 0, TextDecoder, TextEncoder, URL,
};
ctx.globalThis = ctx;
ctx.window = ctx;
ctx.self = ctx;
vm.createContext(ctx);
vm.runInContext(src, ctx, { filename: bundle });
if (typeof ctx.__importTraceEvents !== 'function') throw new Error('the importer was not found');

for (const file of files) {
  warnings = [];
  const group = ctx.__importTraceEvents(JSON.parse(fs.readFileSync(file, 'utf8')));
  const profiles = group.profiles.map(p => p.getName());
  process.stdout.write(JSON.stringify({ file: path.basename(file), profiles, warnings: warnings.slice(0, 10), nwarnings: warnings.length }) + '\n');
}
