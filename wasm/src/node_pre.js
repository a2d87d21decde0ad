// Pre-JS for Node builds: hand Emscripten 3.1.6 the wasm bytes, because its loader's fetch() path
// fails under Node 20's global fetch ("Failed to parse URL"). Pthread workers receive the compiled
// module from the main thread and skip this.
if (typeof process === 'object' && !Module['ENVIRONMENT_IS_PTHREAD'] && !Module['wasmBinary']) {
  Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
}
