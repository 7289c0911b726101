// Two projects: fast unit tests beside the code, and e2e specs that boot the whole app on a real database.
const tsJest = ['ts-jest', {}];
// @fastify/static (served for Swagger UI) requires content-disposition 3, an ES module that Jest
// cannot load as CommonJS; it is compiled for the tests like our own sources.
const esmDependencies = {
  transform: {
    '^.+\\.ts$': tsJest,
    '/node_modules/content-disposition/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
};
module.exports = {
  // Jest reads testTimeout only at the top level (a project's own value is ignored): the e2e specs
  // drive whole apps over HTTP, and a loaded machine must not turn a slow setup into a failure.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/src'],
      testRegex: '\\.spec\\.ts$',
      ...esmDependencies,
      moduleFileExtensions: ['ts', 'js', 'json'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/test'],
      testRegex: '\\.e2e-spec\\.ts$',
      // The Galera spec needs a cluster (npm run test:galera starts one and sets TEST_GALERA_URLS).
      testPathIgnorePatterns: process.env.TEST_GALERA_URLS ? [] : ['/test/galera\\.e2e-spec\\.ts$'],
      ...esmDependencies,
      moduleFileExtensions: ['ts', 'js', 'json'],
    },
  ],
};
