#!/usr/bin/env node
// The `coinop` bin: a committed file, so npm links it before `prepare` has built dist/ (npm skips a bin whose file is missing).
await import('../dist/cli.js');
