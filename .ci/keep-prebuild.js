#!/usr/bin/env node
// CI time (DESIGN §11): better-sqlite3's native module is compiled from source when its prebuilt binary cannot
// be downloaded (this machine reaches npm's registry, not GitHub): about 80 s of every `npm ci`. prebuild-install,
// which better-sqlite3 runs before compiling, first looks in npm's cache (~/.npm/_prebuilds) for the archive it
// would download, keyed on the package's version, Node's ABI, the platform, libc and the architecture. After an
// `npm ci` that compiled it, this script puts the module it compiled there, in prebuild-install's own format, so
// the next `npm ci` of the same lock on the same machine unpacks it instead of compiling it. Nothing is fetched;
// a fresh machine compiles once. `.ci/run` checks the module loads after `npm ci` and rebuilds it if not.
//
// Usage: node .ci/keep-prebuild.js   (from the repository's root, after npm ci)
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const moduleDir = path.join(root, 'node_modules', 'better-sqlite3');
const built = path.join('build', 'Release', 'better_sqlite3.node');

const pkg = JSON.parse(fs.readFileSync(path.join(moduleDir, 'package.json'), 'utf8'));
const prebuild = path.join(root, 'node_modules', 'prebuild-install');
const opts = require(path.join(prebuild, 'rc.js'))(pkg);
opts.pkg = pkg;
const util = require(path.join(prebuild, 'util.js'));
const cached = util.cachedPrebuild(util.getDownloadUrl(opts));

if (fs.existsSync(cached)) {
    console.log(`better-sqlite3 ${pkg.version}: prebuild kept at ${cached}`);
    process.exit(0);
}
if (!fs.existsSync(path.join(moduleDir, built))) {
    console.log(`better-sqlite3 ${pkg.version}: no compiled module to keep`);
    process.exit(0);
}
fs.mkdirSync(path.dirname(cached), { recursive: true });
const tmp = `${cached}.${process.pid}.tmp`;
execFileSync('tar', ['czf', tmp, '-C', moduleDir, built]);
fs.renameSync(tmp, cached);
console.log(`better-sqlite3 ${pkg.version}: compiled module kept at ${cached} for the next npm ci`);
