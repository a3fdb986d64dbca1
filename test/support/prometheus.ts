/** Scraping `/metrics` as Prometheus would: its text parsed by Prometheus' text-format parser. */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Families = ReturnType<typeof parsePrometheusTextFormat>;

export interface Scrape {
  status: number;
  contentType: string;
  text: string;
  families: Families;
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text,
    families: res.status === 200 ? parsePrometheusTextFormat(text) : [],
  };
}

/**
 * A histogram's observation count for `labels` (exactly), read from the text: the parser flattens labelled
 * histograms away, keeping only their buckets.
 */
export function histogramCount(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = text.split('\n').find((l) => l.startsWith(`${name}_count${wanted ? `{${wanted}}` : ''} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The sum of a counter's or gauge's samples whose labels include `labels` (0 when none). */
export function sampleSum(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  return (family?.metrics ?? [])
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0);
}

/** Every label value of every sample. */
export function labelValues(families: Families): string[] {
  return families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
}
