// Where the published wasm modules live: public/wasm/<content-hash>/ under the site's base URL.
// Resolved on the page (against document.baseURI, so a relative base and sub-paths work) and
// handed to the engine worker as an absolute URL.

declare const __PIPELAB_WASM_DIR__: string | null;

export function wasmModuleUrl(
  file: string,
  base: string = import.meta.env.BASE_URL,
  pageUrl: string = document.baseURI,
): string {
  if (!__PIPELAB_WASM_DIR__)
    throw new Error('The wasm modules are not built: run `npm run build` (or `npm start`).');
  return new URL(`${base}wasm/${__PIPELAB_WASM_DIR__}/${file}`, pageUrl).href;
}
