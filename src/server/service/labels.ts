import type { ProviderRenamer } from '../../core/internal';

/** `provider` values of a session list, from the service's labels back to the neutral ones. */
export function neutralList(labels: ProviderRenamer, body: unknown): unknown {
  const sessions = (body as { sessions?: unknown })?.sessions;
  if (labels.neutral || !Array.isArray(sessions)) return body;
  const map = (s: unknown) =>
    s && typeof s === 'object' && 'provider' in s ? { ...s, provider: labels.providerFromWire(s.provider as string | null) } : s;
  return { ...(body as object), sessions: sessions.map(map) };
}

/** A multipart body whose JSON `payload` part is renamed to the service's labels (other parts kept as they are). */
export async function labelledForm(labels: ProviderRenamer, form: FormData): Promise<FormData> {
  if (labels.neutral) return form;
  const out = new FormData();
  for (const [name, value] of form.entries()) {
    if (name !== 'payload') {
      out.append(name, value);
      continue;
    }
    const text = typeof value === 'string' ? value : await value.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      out.append(name, value); // not JSON: the service answers 400 about it
      continue;
    }
    const relabelled = json && typeof json === 'object' && !Array.isArray(json) ? labels.bodyToWire(json as Record<string, unknown>) : json;
    out.append(
      name,
      typeof value === 'string' ? JSON.stringify(relabelled) : new Blob([JSON.stringify(relabelled)], { type: 'application/json' }),
    );
  }
  return out;
}
