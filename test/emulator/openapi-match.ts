import { z } from 'zod';
import type { Seen } from './helpers';

type Json = Record<string, unknown>;
type Op = { responses: Record<string, { content?: Record<string, { schema: Json }> }> };

/** The operation of `doc` that serves `method path` (path templates like `/liveai/sessions/{session_id}`). */
export function findOperation(doc: Json, method: string, path: string): { template: string; op: Op } | null {
  const paths = doc.paths as Record<string, Record<string, Op>>;
  for (const [template, item] of Object.entries(paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    if (re.test(path.split('?')[0]!) && item[method.toLowerCase()]) return { template, op: item[method.toLowerCase()]! };
  }
  return null;
}

const resolve = (doc: Json, schema: Json): Json => {
  const ref = schema.$ref as string | undefined;
  return ref ? ((doc.components as Json).schemas as Record<string, Json>)[ref.split('/').pop()!]! : schema;
};

/**
 * Problems of one recorded answer against the document: undocumented status, undocumented content type,
 * or a JSON body that does not match the documented schema (checked with zod's JSON Schema reader).
 */
export function responseProblems(doc: Json, seen: Seen): string[] {
  const found = findOperation(doc, seen.method, seen.path);
  if (!found) return [];
  const res = found.op.responses[String(seen.status)];
  const where = `${seen.method} ${seen.path} → ${seen.status}`;
  if (!res) return [`${where}: status not documented for ${found.template}`];
  if (!res.content) return [];
  const type = seen.contentType.split(';')[0]!.trim();
  const media = res.content[type];
  if (!media) return [`${where}: content type ${type} not documented`];
  if (type !== 'application/json') return [];
  const result = z.fromJSONSchema(resolve(doc, media.schema) as never).safeParse(seen.body);
  return result.success
    ? []
    : [`${where}: body ${JSON.stringify(seen.body).slice(0, 200)} does not match: ${result.error.message.slice(0, 300)}`];
}
