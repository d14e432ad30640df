// Shared Jest settings: ts-jest transpiles only (type checking is `npm run typecheck`),
// and @platform/* imports resolve to the libs' sources.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, path.join(__dirname, target)]),
);

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.base.json') }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['<rootDir>/**/*.test.ts'],
  testTimeout: 60000,
};
