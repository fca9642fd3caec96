/** The tags module's public surface. */
export { createTagsModule, type TagsModuleDeps } from './tags-module.ts';
