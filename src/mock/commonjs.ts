import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';
import type KoaRouter from '@koa/router';
import type { XMLBuilderConstructor } from 'fast-xml-builder';

// node:http and @koa/router (whose ES build imports node:http) are loaded with require(). An ES
// import of node:http makes Node build its module facade, which reads every export, the lazy
// `WebSocket` among them, and so compiles Node's bundled undici (a 750 KB script) in a server
// that never fetches: +13 MB RSS and start-up time for nothing. require() reads no export.
const require = createRequire(import.meta.url);

/** `node:http`, without its ES module facade. */
export const http = require('node:http') as typeof NodeHttp;

/** @koa/router's CommonJS build (its ES build imports node:http). */
export const Router = require('@koa/router') as typeof KoaRouter;
/** A router made by `Router`. */
export type Router = KoaRouter;

/**
 * fast-xml-builder's class, required when the first XML answer is built: most documents never
 * answer XML, and a server keeps every module it loads (this one and its two dependencies).
 */
export function xmlBuilderClass(): XMLBuilderConstructor {
  return (require('fast-xml-builder') as { default: XMLBuilderConstructor }).default;
}
