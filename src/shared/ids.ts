/**
 * Branded ids (zero runtime cost). External ids are the catalog's strings; a DocId is a dense u32
 * starting at 0 inside one index generation. Never pass one where the other is expected.
 */
export type DocId = number & { readonly __brand: 'DocId' }
export type ExternalId = string & { readonly __brand: 'ExternalId' }
export type TermOrd = number & { readonly __brand: 'TermOrd' }
export type FacetOrd = number & { readonly __brand: 'FacetOrd' }
