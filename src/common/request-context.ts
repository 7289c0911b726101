import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from '../auth/permissions';

/**
 * What a request carries across the layers without being passed along: who is calling. The HTTP
 * layer opens one store per request (app-setup.ts), the guard fills it in, and the event log reads
 * it, so that services need not thread the caller through every method to record who wrote.
 */
export interface RequestContext {
  principal?: Principal;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The caller of the current request, if it is authenticated. */
export function currentPrincipal(): Principal | undefined {
  return requestContext.getStore()?.principal;
}
