const preset = require('../../jest.preset.js');

// jose ships only ES modules: ts-jest turns them into CommonJS for Jest (node itself loads them as they are).
module.exports = {
  ...preset,
  rootDir: __dirname,
  transform: {
    ...preset.transform,
    '/jose/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
