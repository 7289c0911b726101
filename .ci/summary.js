// Prints one closing line per jest run and a total, in the plain "N passed, N failed" form.
const { readFileSync } = require('node:fs');
const { basename } = require('node:path');

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  const result = JSON.parse(readFileSync(file, 'utf8'));
  const name = basename(file, '.json');
  console.log(`${name}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  if (!result.success) process.exitCode = 1;
}
console.log(`total: ${passed} passed, ${failed} failed`);
