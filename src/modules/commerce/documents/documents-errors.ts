import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The answers of order documents (docs/commerce.md, "Order documents"). */
export const documentNotFound = defineError('commerce.document_not_found', 404, 'Document not found');
