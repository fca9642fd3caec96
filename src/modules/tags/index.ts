/** The tags module's public surface. */
export { createTagsModule, type TagsModule } from './tags-module.ts';
