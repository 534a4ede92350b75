import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Comments explain the code in the repository's own words: they link to docs/*.md (or a standard such as DICOM PS3.x),
 * never to material outside the repository, and every docs link they hold leads somewhere.
 */
const ROOT = process.cwd();
const FOLDERS = ['infra', 'functions', 'shared', 'web', 'cli', 'tests', 'bench'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'cdk.out', '.data', 'test-output', 'coverage', 'fixtures']);
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** Citations of documents that live outside the repository. */
const OUTSIDE_CITATIONS: { name: string; pattern: RegExp }[] = [
  { name: 'record section', pattern: /\brecord(?:'s)? sections?\b/i },
  { name: 'the record', pattern: /\bthe record\b(?!s)/i },
  { name: 'DESIGN.md', pattern: /\bDESIGN\.md\b/ },
  { name: 'STYLE.md', pattern: /\bSTYLE\.md\b/ },
  { name: 'observed-build', pattern: /observed-build/i },
  { name: 'local-stack-notes', pattern: /local-stack-notes/i },
  { name: 'issue <n>', pattern: /\bissues? #?\d+/i },
];

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return SKIPPED_FOLDERS.has(name) ? [] : sourceFiles(path);
      return SOURCE_EXTENSIONS.has(extname(name)) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

type Comment = { file: string; line: number; text: string };

/**
 * Every comment of a file: the trivia before each token of the parsed file, so strings, regular expressions and
 * templates are never read as comments.
 */
function commentsOf(path: string): Comment[] {
  const source = readFileSync(path, 'utf8');
  const file = relative(ROOT, path);
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : path.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const parsed = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const comments: Comment[] = [];
  const collect = (position: number) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(source, position) ?? []),
      ...(ts.getTrailingCommentRanges(source, position) ?? []),
    ]) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const first = parsed.getLineAndCharacterOfPosition(range.pos).line + 1;
      source
        .slice(range.pos, range.end)
        .split('\n')
        .forEach((text, i) => comments.push({ file, line: first + i, text }));
    }
  };
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    collect(node.pos);
    collect(node.end);
    for (const child of node.getChildren(parsed)) visit(child);
  };
  visit(parsed);
  return comments;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]!));
  }
  return anchors;
}

const comments = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).flatMap(commentsOf);

describe('comments cite the repository, not outside documents', () => {
  it('reads the comments of every source file', () => {
    expect(comments.length).toBeGreaterThan(1000);
  });

  it('cites no outside document (record sections, design notes, issue numbers)', () => {
    const offenders = comments.flatMap((comment) =>
      OUTSIDE_CITATIONS.filter(({ pattern }) => pattern.test(comment.text)).map(
        ({ name }) => `${comment.file}:${comment.line} cites "${name}"`,
      ),
    );
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('links only to docs files and headings that exist', () => {
    const broken = comments.flatMap((comment) =>
      [...comment.text.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)].flatMap(([link, name, anchor]) => {
        const path = join(ROOT, 'docs', name!);
        if (!existsSync(path)) return [`${comment.file}:${comment.line} links to missing ${link}`];
        if (anchor && !anchorsOf(readFileSync(path, 'utf8')).has(anchor))
          return [`${comment.file}:${comment.line} links to missing heading ${link}`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });
});

describe('the documentation', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));

  it('links between its pages only to pages and headings that exist', () => {
    const broken = docs.flatMap((name) =>
      [
        ...readFileSync(join(ROOT, 'docs', name), 'utf8').matchAll(/\]\((?!https?:)([\w./-]*\.md)?(?:#([\w-]+))?\)/g),
      ].flatMap(([link, target, anchor]) => {
        const path = target ? join(ROOT, 'docs', target) : join(ROOT, 'docs', name);
        if (!existsSync(path)) return [`docs/${name}: ${link} leads nowhere`];
        if (anchor && !anchorsOf(readFileSync(path, 'utf8')).has(anchor))
          return [`docs/${name}: ${link} has no such heading`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });
});
