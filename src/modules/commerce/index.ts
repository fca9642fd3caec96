/** The Commerce module's public surface. */
export { createCommerceModule } from './commerce-module.ts';
