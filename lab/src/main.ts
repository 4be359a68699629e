/**
 * The robots.txt lab's page: reads the state (the URL fragment, or the example), and on every change computes the
 * matrix, the diagnostics, the diff and the simulation with the library's WebAssembly engine, in the page. Renders
 * run one at a time; `data-lab-revision` on the root element counts the finished ones (tests wait on it).
 */
import { init, lintRobotsTxt, type ProfileName } from 'robotstxt-wasm';
import type { EditorView } from '@codemirror/view';
import { changedVerdicts, type VerdictChange } from './diff.js';
import { createEditor, markDecidingLine, setText, showFindings, type LineFinding } from './editor.js';
import { linesReadDifferently } from './line-readings.js';
import { fetchLive, isLive } from './live-fetch.js';
import { buildMatrix, columnsOf, Parses, type Matrix } from './matrix.js';
import { PRESET_CRAWLERS, READINGS, isReading, readCrawlers } from './readings.js';
import { SAMPLE_AGENTS, SAMPLE_ROBOTS, SAMPLE_URLS } from './sample.js';
import { CASES, simulate, type SimulatedReading } from './simulate.js';
import { LIMITS, hasState, readFragment, writeFragment, type LabState } from './state.js';
import { byId, h } from './view/dom.js';
import { renderDiff } from './view/diff-table.js';
import { clearExplanation, renderExplanation } from './view/explanation.js';
import { enableArrowKeys, markChosen, renderMatrix, type CellPlace } from './view/matrix-table.js';
import { renderSimulation } from './view/simulation-table.js';

/** The most cells the matrix shows: beyond, the URLs past the bound are left out, and the page says so. */
const MAX_CELLS = 20_000;
/** Edits are rendered once typing pauses this long. */
const TYPING_PAUSE_MS = 150;

const page = {
  status: byId('status', HTMLElement),
  editor: byId('robots-editor', HTMLElement),
  urls: byId('urls', HTMLTextAreaElement),
  agents: byId('agents', HTMLTextAreaElement),
  agentProblems: byId('agent-problems', HTMLElement),
  presets: byId('presets', HTMLElement),
  matrix: byId('matrix', HTMLTableElement),
  matrixNote: byId('matrix-note', HTMLElement),
  explain: byId('explain', HTMLElement),
  before: byId('before', HTMLTextAreaElement),
  keepBefore: byId('keep-before', HTMLButtonElement),
  diff: byId('diff', HTMLTableElement),
  diffSummary: byId('diff-summary', HTMLElement),
  simulateCase: byId('simulate-case', HTMLSelectElement),
  simulateSummary: byId('simulate-summary', HTMLElement),
  simulation: byId('simulation', HTMLTableElement),
  openFile: byId('open-file', HTMLInputElement),
  loadSample: byId('load-sample', HTMLButtonElement),
  copyLink: byId('copy-link', HTMLButtonElement),
  findings: byId('findings', HTMLUListElement),
  findingsSummary: byId('findings-summary', HTMLElement),
  sizeGoogle: byId('size-google', HTMLMeterElement),
  sizeGoogleText: byId('size-google-text', HTMLElement),
  sizeYandex: byId('size-yandex', HTMLMeterElement),
  sizeYandexText: byId('size-yandex-text', HTMLElement),
  liveFetch: byId('live-fetch', HTMLElement),
};

/** The file as given (a link's or a file's exact text, until edited): what the matrix decides on. */
let robotsText = '';
let editor: EditorView;
/** While the page itself sets the editor's text, edits are not the user's. */
let settingText = false;
let shown: { parses: Parses; matrix: Matrix } | undefined;
let chosen: CellPlace | undefined;
let lastSimulation: { key: string; readings: SimulatedReading[] } | undefined;
let rendering = false;
let renderAgain = false;
let typingTimer: ReturnType<typeof setTimeout> | undefined;

function lines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function chosenReadings(): ProfileName[] {
  const boxes = document.querySelectorAll<HTMLInputElement>('input[name="profile"]');
  return [...boxes].filter((box) => box.checked && isReading(box.value)).map((box) => box.value as ProfileName);
}

function currentState(): LabState {
  const profiles = chosenReadings();
  return {
    robots: robotsText,
    before: page.before.value === '' ? undefined : page.before.value,
    agents: lines(page.agents.value).slice(0, LIMITS.agents),
    urls: lines(page.urls.value).slice(0, LIMITS.urls),
    profiles: profiles.length === 0 ? [...READINGS] : profiles,
    simulate: page.simulateCase.value === '' ? undefined : page.simulateCase.value,
  };
}

function applyState(state: LabState): void {
  setRobotsText(state.robots);
  page.urls.value = state.urls.join('\n');
  page.agents.value = state.agents.join('\n');
  page.before.value = state.before ?? '';
  for (const box of document.querySelectorAll<HTMLInputElement>('input[name="profile"]')) {
    box.checked = state.profiles.includes(box.value as ProfileName);
  }
  page.simulateCase.value = state.simulate !== undefined && Object.hasOwn(CASES, state.simulate) ? state.simulate : '';
  chosen = undefined;
  syncPresets();
}

function setRobotsText(text: string): void {
  robotsText = text.slice(0, LIMITS.textChars);
  settingText = true;
  try {
    setText(editor, robotsText);
  } finally {
    settingText = false;
  }
}

/** Schedules a render once typing pauses. */
function changed(): void {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => void render(), TYPING_PAUSE_MS);
}

/** Renders the current state; a render asked for while one runs follows it. */
async function render(): Promise<void> {
  clearTimeout(typingTimer);
  if (rendering) {
    renderAgain = true;
    return;
  }
  rendering = true;
  try {
    do {
      renderAgain = false;
      await renderOnce(currentState());
    } while (renderAgain);
  } catch (error) {
    say(`Something went wrong: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    rendering = false;
  }
}

async function renderOnce(state: LabState): Promise<void> {
  shown?.parses.dispose();
  const parses = new Parses(state.robots);
  const { crawlers, problems } = readCrawlers(state.agents);
  const columns = columnsOf(crawlers, state.profiles);
  const rowsShown = columns.length === 0 ? state.urls.length : Math.min(state.urls.length, Math.floor(MAX_CELLS / columns.length));
  const urls = state.urls.slice(0, rowsShown);
  const matrix = buildMatrix(parses, urls, columns);
  shown = { parses, matrix };
  renderMatrix(page.matrix, matrix, choose);
  page.agentProblems.textContent = problems.map(({ given, problem }) => `Left out “${given}”: ${problem}.`).join(' ');
  page.matrixNote.textContent = [
    urls.length < state.urls.length
      ? `Showing the first ${urls.length} of ${state.urls.length} URLs (at most ${MAX_CELLS.toLocaleString('en')} verdicts).`
      : '',
    columns.length === 0 ? 'Add a crawler to see verdicts.' : '',
    state.urls.length === 0 ? 'Add a URL to see verdicts.' : '',
  ]
    .filter((note) => note !== '')
    .join(' ');
  if (chosen !== undefined && (chosen.row >= urls.length || chosen.column >= columns.length)) chosen = undefined;
  showChosen();
  showDiagnostics(state.robots, matrix);
  showSize(state.robots);
  renderDiff(page.diff, page.diffSummary, diffOf(state, matrix));
  await showSimulation(state);
  await keepInAddress(state);
  const root = document.documentElement;
  root.dataset.labRevision = String(Number(root.dataset.labRevision ?? '0') + 1);
}

function choose(place: CellPlace): void {
  chosen = place;
  showChosen();
}

function showChosen(): void {
  markChosen(page.matrix, chosen);
  const cell = chosen === undefined ? undefined : shown?.matrix.cells[chosen.row]?.[chosen.column];
  const column = chosen === undefined ? undefined : shown?.matrix.columns[chosen.column];
  const url = chosen === undefined ? undefined : shown?.matrix.urls[chosen.row];
  if (cell === undefined || column === undefined || url === undefined) {
    clearExplanation(page.explain);
    markDecidingLine(editor, 0);
    return;
  }
  const line = cell.explanation.line;
  const lineText = line >= 1 && line <= editor.state.doc.lines ? editor.state.doc.line(line).text : undefined;
  renderExplanation(page.explain, url, column, cell, lineText);
  markDecidingLine(editor, line);
}

function diffOf(state: LabState, matrix: Matrix): VerdictChange[] | undefined {
  if (state.before === undefined) return undefined;
  const before = new Parses(state.before);
  try {
    return changedVerdicts(buildMatrix(before, matrix.urls, matrix.columns), matrix);
  } finally {
    before.dispose();
  }
}

function showDiagnostics(text: string, matrix: Matrix): void {
  const readings = linesReadDifferently(matrix);
  const findings: LineFinding[] = lintRobotsTxt(text).map((diagnostic) => {
    const differ = readings.get(diagnostic.line);
    readings.delete(diagnostic.line);
    const parts = [
      diagnostic.message,
      diagnostic.hint === undefined ? '' : `Write instead: ${diagnostic.hint}.`,
      differ === undefined ? '' : `${differ}.`,
    ];
    return { ...diagnostic, message: parts.filter((part) => part !== '').join(' ') };
  });
  for (const [line, differ] of readings)
    findings.push({ line, column: 0, severity: 'info', code: 'readings-differ', message: `${differ}.` });
  findings.sort((a, b) => a.line - b.line);
  showFindings(editor, findings);
  page.findingsSummary.textContent = findings.length === 0 ? 'Diagnostics: none' : `Diagnostics: ${findings.length}`;
  page.findings.replaceChildren(
    ...findings.map((finding) =>
      h(
        'li',
        { class: finding.severity },
        `Line ${finding.line}: ${finding.severity} `,
        h('code', {}, finding.code),
        ` ${finding.message}`,
      ),
    ),
  );
}

function showSize(text: string): void {
  const bytes = new TextEncoder().encode(text).length;
  page.sizeGoogle.value = Math.min(bytes, page.sizeGoogle.max);
  page.sizeYandex.value = Math.min(bytes, page.sizeYandex.max);
  const percent = (limit: number) => `${((bytes / limit) * 100).toFixed(bytes < limit / 100 ? 2 : 0)}%`;
  page.sizeGoogleText.textContent = `${bytes.toLocaleString('en')} of 512,000 bytes (${percent(512_000)})${bytes > 512_000 ? ': the rest is ignored' : ''}`;
  page.sizeYandexText.textContent = `${bytes.toLocaleString('en')} of 32,768 bytes (${percent(32_768)})${bytes > 32_768 ? ': Yandex allows everything' : ''}`;
}

async function showSimulation(state: LabState): Promise<void> {
  const caseName = state.simulate;
  const spec = caseName === undefined ? undefined : CASES[caseName];
  if (caseName === undefined || spec === undefined) {
    renderSimulation(page.simulation, page.simulateSummary, undefined, []);
    return;
  }
  const key = JSON.stringify([caseName, state.profiles, state.robots]);
  if (lastSimulation?.key !== key) lastSimulation = { key, readings: await simulate(caseName, state.robots, state.profiles) };
  renderSimulation(page.simulation, page.simulateSummary, spec.title, lastSimulation.readings);
}

/** Writes the state into the address (replacing the entry: editing makes no history to step back through). */
async function keepInAddress(state: LabState): Promise<void> {
  const fragment = await writeFragment(state);
  if (fragment !== location.hash) history.replaceState(null, '', fragment);
}

function say(message: string): void {
  page.status.textContent = message;
}

/** The preset checkboxes: each is checked while its crawler is in the list; toggling one adds or removes it. */
function buildPresets(): void {
  for (const name of PRESET_CRAWLERS) {
    const box = h('input', { type: 'checkbox', value: name });
    box.addEventListener('change', () => {
      const listed = lines(page.agents.value);
      page.agents.value = (box.checked ? [...listed, name] : listed.filter((line) => line !== name)).join('\n');
      void render();
    });
    page.presets.append(h('label', { class: 'preset' }, box, ` ${name}`));
  }
}

function syncPresets(): void {
  const listed = new Set(lines(page.agents.value));
  for (const box of page.presets.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) box.checked = listed.has(box.value);
}

async function openFile(file: File): Promise<void> {
  if (file.size > LIMITS.textChars * 4) {
    say(`${file.name} is ${file.size.toLocaleString('en')} bytes: too large for the lab (crawlers read the first 512,000).`);
    return;
  }
  setRobotsText(await file.text());
  chosen = undefined;
  say(`Opened ${file.name}.`);
  await render();
}

function buildLiveFetch(): void {
  if (!isLive()) {
    page.liveFetch.append(
      h(
        'p',
        { class: 'hint' },
        'This page cannot fetch a site’s robots.txt: a browser page may not read another site’s files. To fetch live files, run ',
        h('code', {}, 'npx robotstxt lab'),
        ' and open the address it prints.',
      ),
    );
    return;
  }
  const input = h('input', { id: 'site', type: 'text', inputmode: 'url', autocomplete: 'url', placeholder: 'https://www.example.com/' });
  const form = h(
    'form',
    { class: 'toolbar' },
    h('label', { for: 'site' }, 'Site'),
    input,
    h('button', { type: 'submit' }, 'Fetch its robots.txt'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void fetchSite(input.value.trim());
  });
  page.liveFetch.append(form);
}

async function fetchSite(site: string): Promise<void> {
  if (site === '') return;
  say(`Fetching ${site}…`);
  try {
    const fetched = await fetchLive(site, chosenReadings()[0] ?? 'rfc9309');
    const where = `${fetched.finalUrl} answered ${fetched.status === 0 ? 'nothing' : fetched.status}`;
    if (fetched.body !== null) {
      setRobotsText(fetched.body);
      chosen = undefined;
      say(
        `${where}: ${fetched.bytes.toLocaleString('en')} bytes${fetched.truncated ? ' (cut at the limit)' : ''}, ${fetched.redirects} redirects.`,
      );
    } else {
      say(`${where} (${fetched.reason}): a crawler reads this as ${fetched.outcome.replace('-', ' ')}. The editor keeps its file.`);
    }
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
  }
  await render();
}

async function loadFromAddress(): Promise<void> {
  try {
    applyState(await readFragment(location.hash));
  } catch (error) {
    say(`The link’s state could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  await render();
}

async function start(): Promise<void> {
  await init();
  editor = createEditor(page.editor, '', 'robots.txt file', () => {
    if (settingText) return;
    robotsText = editor.state.doc.toString();
    changed();
  });
  buildPresets();
  buildLiveFetch();
  for (const [value, spec] of Object.entries(CASES)) page.simulateCase.append(h('option', { value }, spec.title));
  enableArrowKeys(page.matrix);
  // The skip link moves focus without replacing the fragment, which holds the state.
  byId('skip', HTMLAnchorElement).addEventListener('click', (event) => {
    event.preventDefault();
    byId('matrix-section', HTMLElement).focus();
  });

  for (const input of [page.urls, page.agents, page.before]) input.addEventListener('input', changed);
  page.agents.addEventListener('input', syncPresets);
  for (const box of document.querySelectorAll<HTMLInputElement>('input[name="profile"]'))
    box.addEventListener('change', () => void render());
  page.simulateCase.addEventListener('change', () => void render());
  page.keepBefore.addEventListener('click', () => {
    page.before.value = robotsText;
    void render();
  });
  page.loadSample.addEventListener('click', () => {
    setRobotsText(SAMPLE_ROBOTS);
    chosen = undefined;
    void render();
  });
  page.openFile.addEventListener('change', () => {
    const file = page.openFile.files?.[0];
    if (file !== undefined) void openFile(file);
  });
  page.editor.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  page.editor.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (file === undefined) return;
    event.preventDefault();
    void openFile(file);
  });
  page.copyLink.addEventListener('click', () => {
    navigator.clipboard.writeText(location.href).then(
      () => say('The link to this test is copied.'),
      () => say('The browser did not let the page copy: copy the address bar instead.'),
    );
  });
  // A link's new state is being read: not ready until it is shown (tests wait on data-lab-ready).
  window.addEventListener('hashchange', () => {
    if (!hasState(location.hash)) return;
    document.documentElement.dataset.labReady = 'false';
    void loadFromAddress().finally(() => (document.documentElement.dataset.labReady = 'true'));
  });

  if (hasState(location.hash)) await loadFromAddress();
  else {
    applyState({
      robots: SAMPLE_ROBOTS,
      before: undefined,
      agents: SAMPLE_AGENTS,
      urls: SAMPLE_URLS,
      profiles: READINGS,
      simulate: undefined,
    });
    await render();
  }
  say(isLive() ? 'Ready. Served by robotstxt lab: live fetches go through it.' : 'Ready. Everything runs in this page.');
  document.documentElement.dataset.labReady = 'true';
}

/**
 * Keeps the page's files for offline use (lab/service-worker.js), in the built page only: the dev server's files
 * change as they are edited. A page opened from disk (file:) or an insecure origin cannot have one, and works online.
 */
function workOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('./sw.js').catch(() => undefined);
}

workOffline();
start().catch((error: unknown) => say(`The lab could not start: ${error instanceof Error ? error.message : String(error)}`));
