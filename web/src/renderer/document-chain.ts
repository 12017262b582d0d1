import { useEffect, useState } from 'react';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { api } from '../core/http-client.ts';

export interface ChainDocument { entity: string; id: number; title: string; status: string | null }
export interface ChainScreen { target: string; source: string; path: string; href: string; label: { th: string; en: string }; action: { th: string; en: string } }
/** GET /api/{entity}/{id}/related (server/documents/document-chain-routes.ts). */
export interface DocumentChain { sources: ChainDocument[]; made: ChainDocument[]; create: ChainScreen[] }

/** Whether a document takes part in chains at all: it has lines (the server answers /related for those in a chain). */
export function hasChain(entity: EntitySchema): boolean {
  return !!entity.document?.lines;
}

export function fetchDocumentChain(entity: string, id: number): Promise<DocumentChain> {
  return api.get<{ data: DocumentChain }>(`/api/${entity}/${id}/related`).then((r) => r.data);
}

/** The chain around a stored document, read again whenever `stamp` (its status, its last change) moves. */
export function useDocumentChain(entity: EntitySchema, id: number | undefined, stamp: string): DocumentChain | null {
  const [chain, setChain] = useState<DocumentChain | null>(null);
  useEffect(() => {
    if (id === undefined || !hasChain(entity)) { setChain(null); return; }
    let live = true;
    // a document outside any chain answers 404: it simply has no chain to show
    fetchDocumentChain(entity.name, id).then((c) => live && setChain(c), () => live && setChain(null));
    return () => { live = false; };
  }, [entity, id, stamp]);
  return chain;
}
