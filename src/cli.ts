#!/usr/bin/env node
// `npm start` / `npx pix-sandbox`. Node 22.1 and later keep the compiled code of the modules they load in a cache on
// disk, so that the next start does not compile them again: turned on here, before the CLI's own code is imported
// (a module compiled before the call is not cached). Node 20 has no such cache, and nothing changes there.
import { enableCompileCache } from './lib/compile-cache';

enableCompileCache();
await import('./cli-main');
