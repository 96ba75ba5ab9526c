// The project's version, from package.json (inlined into each dist/*/main.mjs by esbuild, read at start under tsx).
import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
