/** The Commerce module's public surface: its factory, and its scopes for the keys module's gate. */
export { createCommerceModule, type CommerceInsights, type CommerceModuleDeps } from './commerce-module.ts';
export { COMMERCE_SCOPES, grants, isGrantableScope } from './scopes/commerce-scopes.ts';
