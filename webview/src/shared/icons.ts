import type { MemoryKind } from '../../../server/src/memory/types';

/** 16×16 line icons (stroked in currentColor), drawn here: no icon font or remote asset to load. */
const PATHS: Readonly<Record<MemoryKind | 'pin' | 'compaction' | 'session', string>> = {
  diff: 'M4 3v4M2 5h4M10 11h4M3 13h4M9 3h5',
  constraint: 'M4.5 7V5a3.5 3.5 0 0 1 7 0v2M3.5 7h9v6.5h-9zM8 9.5v2',
  decision: 'M2.5 8.5l3.5 3.5 7.5-8',
  gotcha: 'M8 2L14.5 13.5h-13zM8 6.5v3.5M8 11.5v.5',
  summary: 'M3 4h10M3 7h10M3 10h7M3 13h5',
  note: 'M3.5 2.5h6l3 3v8h-9zM9.5 2.5v3h3',
  fact: 'M8 1.75a6.25 6.25 0 1 0 0 12.5a6.25 6.25 0 1 0 0-12.5M8 7v4.5M8 4.75v.5',
  intent: 'M8 1.75a6.25 6.25 0 1 0 0 12.5a6.25 6.25 0 1 0 0-12.5M8 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6M8 7.5v1',
  pin: 'M6 2.5h4M7 2.5v4l-2.5 2.5h7L9 6.5v-4M8 9v4.5',
  compaction: 'M2 4h12M2 12h12M8 5.5v5M5.5 8L8 10.5L10.5 8',
  session: 'M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z',
};

export type IconName = keyof typeof PATHS;

export function icon(name: IconName, label?: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('class', `icon icon-${name}`);
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', PATHS[name]);
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.3');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('stroke-linejoin', 'round');
  svg.appendChild(path);
  return svg;
}
