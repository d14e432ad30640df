// What the widget's bundle takes from the catalogue: English (built in) and the language rules.
// The other languages reach the browser as packs (apps/widget/build.mjs), never through this file.
export * from './en';
export * from './languages';
