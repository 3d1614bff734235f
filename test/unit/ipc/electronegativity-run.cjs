// Runs Electronegativity (@doyensec/electronegativity) over a folder and prints its findings as JSON.
// Started by electronegativity.test.ts in a child process with every network call refused: the tool
// tries to download translations and Electron's release list, and tests talk to loopback only.
'use strict';
const Module = require('node:module');
const http = require('node:http');
const https = require('node:https');

const refuse = () => {
  throw new Error('network access is disabled while Electronegativity runs in the tests');
};
http.request = refuse;
http.get = refuse;
https.request = refuse;
https.get = refuse;
// `got` (its HTTP client) rejects at once instead of retrying, so nothing leaks after the run
const offline = () => Promise.reject(new Error('offline'));
offline.head = offline;
offline.get = offline;
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'got') return { __esModule: true, default: offline };
  return load.call(this, request, ...rest);
};

const run = require('@doyensec/electronegativity');
const [input, electronVersion] = process.argv.slice(2);

run({
  input,
  isRelative: true,
  electronVersionOverride: electronVersion,
  parserPlugins: [],
  // needs the network (Electron's release list); the Electron version is checked by Dependabot-style updates instead
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
}).then(
  (result) => {
    const issues = result.issues.map((i) => ({
      id: i.id,
      file: i.file,
      line: i.location?.line ?? null,
      severity: i.severity?.name ?? String(i.severity),
      confidence: i.confidence?.name ?? String(i.confidence),
      description: i.description,
    }));
    process.stdout.write(
      `${JSON.stringify({ checks: result.globalChecks + result.atomicChecks, errors: result.errors, issues })}\n`,
    );
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
