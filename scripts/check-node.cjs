// Runs first in `npm ci` / `npm install` (preinstall) and `npm start`, on whatever Node the user has, so it is written
// in JavaScript any Node parses. An unsupported Node gets one line saying what to do, instead of what it would get
// later (better-sqlite3 13 crashes Node 20 with a segmentation fault).
'use strict';
var MINIMUM = { major: 22, minor: 13 }; // package.json's engines.node: >=22.13
var parts = process.versions.node.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
if (major < MINIMUM.major || (major === MINIMUM.major && minor < MINIMUM.minor)) {
  var again = process.env.npm_lifecycle_event === 'start' ? 'npm start' : "sh -c 'npm ci && npm start'";
  process.stderr.write(
    'coinop: Node.js ' +
      process.version +
      ' is not supported (it needs 22.13 or newer: 22, 24 or 26); ' +
      'run it with Node 26 from the npm registry: npx -y -p node@26 -- ' +
      again +
      '\n',
  );
  process.exit(1);
}
