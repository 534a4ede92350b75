/**
 * `iws`: the engine as a command (docs/pipeline.md#without-a-server). Each sub-command lives in
 * cli/commands/<name>.ts and exports `run(argv: string[]): Promise<number>` (the exit status) and `usage`.
 */
type Command = { run: (argv: string[]) => Promise<number>; usage: string };

const COMMANDS: Record<string, () => Promise<Command>> = {
  anonymize: () => import('./commands/anonymize.ts'),
  classify: () => import('./commands/classify.ts'),
  convert: () => import('./commands/convert.ts'),
  bids: () => import('./commands/bids.ts'),
  process: () => import('./commands/process.ts'),
  upload: () => import('./commands/upload.ts'),
};

const OVERVIEW = `iws: Imaging Workspace engine on folders

Usage: iws <command> [options]

Commands:
  anonymize <file|folder> <outdir>   de-identify DICOM (PS3.15 Annex E Basic Profile)
  classify <input>                   classify series (DICOM, DICOM JSON or BIDS sidecars)
  convert <input> <outdir>           NIfTI + sidecar (+ bval/bvec) per series
  bids <input> <out.zip>             a BIDS dataset as a ZIP
  process <input> <outdir>           the pipeline's own stages on a folder: the cloud's assets
  upload <folder> --api <url> ...    upload a study through the API

Run "iws <command> --help" for a command's options.
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(OVERVIEW);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`iws: unknown command "${name}"\n\n${OVERVIEW}`);
    return 2;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`iws: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
