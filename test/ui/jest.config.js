// Browser tests: a real Chromium (Debian's /usr/bin/chromium, never a downloaded one) against the
// app listening on this machine's network address. Run with `npm run test:ui`; kept out of
// `npm test` because they need the browser installed.
module.exports = {
  displayName: 'ui',
  testEnvironment: 'node',
  rootDir: __dirname,
  testRegex: '\\.ui-spec\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 120000,
};
