#!/usr/bin/env node
// Placeholder until the browser test host lands.
console.error('npm run web: the browser test host arrives with the Electron shell issue');
process.exit(1);
