/**
 * The `threadsearch` command line (commander): one sub-command per file, loaded only when it runs,
 * so starting the server never loads the load generator or the chart renderer. Every failure a user
 * can cause ends in one `threadsearch <command>: …` line on stderr and an exit code from EXIT; only
 * a bug prints a stack.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT } from './cli-error.js';

const EXIT_HELP = `
Exit codes: 0 done; 1 failed (server unreachable, credentials refused, server error);
2 bad command line or input (nothing sent or written); 3 finished with failures (documents
rejected, target not met); 130 interrupted (what was acknowledged is reported).
Server URL and key: --url / THREADSEARCH_URL (default http://127.0.0.1:9200), --api-key /
THREADSEARCH_API_KEY (the encoded key start printed, or one from POST /_security/api_key).
`;

/** Commander's words for flags the server's own parser (config.ts) reads: `threadsearch --port 0`. */
function isServerStart(argv: readonly string[]): boolean {
  if (argv.length === 0) return true;
  const first = argv[0];
  return first.startsWith('-') && !['-h', '--help', '-V', '--version'].includes(first);
}

export function positiveInt(name: string, min = 1): (raw: string) => number {
  return (raw) => {
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}, got [${raw.slice(0, 20)}]`);
    return Number(raw);
  };
}

export function positiveNumber(name: string): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a number > 0, got [${raw.slice(0, 20)}]`);
    return n;
  };
}

/**
 * --headroom as a fraction (0.3) or a percentage (30%). A bare number above 1 is refused: the README
 * and reports speak of "30% headroom", and 30 taken as a fraction would ask for 3000%.
 */
export function headroom(raw: string): number {
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(raw);
  if (percent) return Number(percent[1]) / 100;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`--headroom must be a fraction such as 0.3 or a percentage such as 30%, got [${raw.slice(0, 20)}]`);
  if (n > 1) throw new InvalidArgumentError(`--headroom ${raw.slice(0, 20)} would be ${formatPercent(n)}% headroom; give 30% headroom as 0.3 or 30% (above 100%: e.g. 150%)`);
  return n;
}

function formatPercent(fraction: number): string {
  return String(Math.round(fraction * 100));
}

function connectionOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--url <url>', 'server URL').env('THREADSEARCH_URL').default('http://127.0.0.1:9200'))
    .addOption(new Option('--api-key <encoded>', 'API key, base64 of id:secret').env('THREADSEARCH_API_KEY'));
}

/** The exit code the last action returned (commander ignores actions' return values). */
let actionExitCode: number = EXIT.ok;

/** Wraps a command's action so its returned exit code reaches runCli. */
function exitWith<A extends unknown[]>(action: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args) => {
    actionExitCode = await action(...args);
  };
}

export function buildProgram(): Command {
  const program = new Command('threadsearch')
    .description('An Elasticsearch-compatible semantic search server, and the tools to load it, load-test it and size it.')
    .version(process.env.npm_package_version ?? '0.1.0')
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  program
    .command('start')
    .description('start the server (the same flags as npm start; threadsearch start --help lists them)')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[flags...]')
    .action(exitWith(async (_flags: string[], _opts: unknown, cmd: Command) => {
      const { startServer } = await import('./start.js');
      try {
        await startServer(cmd.args);
      } catch (e) {
        throw e instanceof CliError ? e : new CliError(`failed to start: ${(e as Error).message}`);
      }
      return EXIT.ok;
    }));

  connectionOptions(
    program
      .command('load')
      .description('bulk-load a JSONL/NDJSON file (one document per line; `_id` becomes the document id) or a BEIR folder (its corpus.jsonl)')
      .argument('<source>', 'file.jsonl, file.ndjson (also gzip-compressed, e.g. documents.json.gz) or a BEIR dataset folder')
      .requiredOption('--index <name>', 'target index (created by the first write if absent)')
      .option('--pipeline <id>', 'ingest pipeline every document goes through')
      .option('--batch <n>', 'documents per _bulk request', positiveInt('--batch'), 500)
      .option('--concurrency <n>', '_bulk requests in flight', positiveInt('--concurrency'), 2)
      .option('--resume-from <line>', 'skip the lines before this 1-based line number (the summary of an interrupted run prints it)', positiveInt('--resume-from'), 1)
      .option('--id-field <field>', 'take document ids from this source field instead of `_id`')
      .option('--max-retries <n>', 'retries of a request or document answered 429, with exponential back-off', positiveInt('--max-retries', 0), 8)
      .option('--no-progress', 'no progress bar (it is drawn only on a terminal anyway)'),
  ).action(exitWith(async (source: string, opts) => {
    const { runLoad } = await import('./load/load-command.js');
    return runLoad(source, opts);
  }));

  connectionOptions(
    program
      .command('bench')
      .description('load-test a running server over your own index (autocannon closed loop, or fixed-rate open loop with --rate) and write a report')
      .argument('<scenario>', 'match | multi_match | faceted | text_expansion | sparse_vector | hybrid | autocomplete | bulk | mixed')
      .requiredOption('--index <name>', 'the index to query (load it first)')
      .option('--duration <s>', 'seconds per measured run', positiveNumber('--duration'), 10)
      .option('--amount <n>', 'requests per measured run instead of a duration', positiveInt('--amount'))
      .option('--connections <list>', 'connections (comma-separated: one closed-loop run each)', '10')
      .option('--rate <list>', 'fixed request rates per second (comma-separated: one open-loop run each, latency from the scheduled send)')
      .option('--warmup <s>', 'seconds of warm-up before measuring (0: none)', (v) => (v === '0' ? 0 : positiveNumber('--warmup')(v)), 3)
      .option('--queries <file>', 'query texts, one per line (default: sampled from the index\'s own documents)')
      .option('--field <field>', 'the text field to query (default: the mapping\'s first text field)')
      .option('--model <id>', 'sparse encoder for text_expansion, sparse_vector and hybrid', '.sparse_model_2')
      .option('--bulk-size <n>', 'documents per bulk request (bulk, mixed)', positiveInt('--bulk-size'), 50)
      .option('--mix <reads:writes>', 'mixed: searches per bulk request', '4:1')
      .option('--size <n>', 'hits per search', positiveInt('--size', 0), 10)
      .option('--no-ceiling', 'skip the fastify hello-world run that measures the client\'s own ceiling')
      .option('--out <dir>', 'report folder (default reports/bench-<date>)'),
  ).action(exitWith(async (scenario: string, opts) => {
    const { runBench, parseNumberList } = await import('./bench/bench-command.js');
    return runBench(scenario, {
      ...opts,
      connections: parseNumberList('--connections', opts.connections, true),
      rate: opts.rate === undefined ? undefined : parseNumberList('--rate', opts.rate, false),
      live: true,
    });
  }));

  program
    .command('capacity')
    .description('size a deployment on this machine: start servers with each search threads × shards setting (and model allocations × threads for ingest), measure, pick the smallest that meets the target, extrapolate')
    .requiredOption('--qps <n>', 'target searches per second', positiveNumber('--qps'))
    .option('--docs <n>', 'documents in the sample index', positiveInt('--docs'), 20_000)
    .option('--data <file>', 'JSONL/NDJSON file or BEIR folder to take the sample from (default: the deterministic corpus)')
    .option('--p99 <ms>', 'the p99 latency the target must keep', positiveNumber('--p99'), 100)
    .option('--headroom <fraction>', 'spare throughput the target must leave: 0.3 or 30% (a bare number above 1 is refused as a likely percentage)', headroom, 0.3)
    .option('--mix <reads:writes>', 'searches per bulk request of 50 documents (1:0 for searches only)', '1:0')
    .option('--threads <list>', 'search threads to try (comma-separated)', '1,2')
    .option('--shards <list>', 'shard counts to try (comma-separated)', '1,2')
    .option('--connections <n>', 'connections for the closed-loop maximum and the open-loop runs', positiveInt('--connections'), 32)
    .option('--duration <s>', 'seconds per measurement', positiveNumber('--duration'), 5)
    .option('--ingest-docs-per-s <n>', 'also sweep model deployments for ingest through the inference pipeline, with this target', positiveNumber('--ingest-docs-per-s'))
    .option('--ingest-docs <n>', 'documents per ingest measurement', positiveInt('--ingest-docs'), 500)
    .option('--allocations <list>', 'model allocations to try (comma-separated)', '1,2')
    .option('--threads-per-allocation <list>', 'threads per allocation to try (comma-separated)', '1')
    .addOption(new Option('--simulate <graph>', 'ingest sweep at a transformer\'s cost: the model deployments run in simulation mode (a BERT-base graph beside the built-in encoder; needs onnxruntime-node)').choices(['bert-base']))
    .option('--extrapolate-docs <list>', 'document counts for the extrapolation (default N, 10N, 100N)')
    .option('--extrapolate-cores <list>', 'core counts for the extrapolation', '4,8,16,32')
    .option('--note <text>', 'a line to put at the top of the report (e.g. what else ran on the machine)')
    .option('--out <dir>', 'report folder (default reports/capacity-<date>)')
    .action(exitWith(async (opts) => {
      const { runCapacity } = await import('./capacity/capacity-command.js');
      const { parseNumberList } = await import('./bench/bench-command.js');
      return runCapacity({
        ...opts,
        threads: parseNumberList('--threads', opts.threads, true),
        shards: parseNumberList('--shards', opts.shards, true),
        allocations: parseNumberList('--allocations', opts.allocations, true),
        threadsPerAllocation: parseNumberList('--threads-per-allocation', opts.threadsPerAllocation, true),
        extrapolateDocs: opts.extrapolateDocs === undefined ? undefined : parseNumberList('--extrapolate-docs', opts.extrapolateDocs, true),
        extrapolateCores: parseNumberList('--extrapolate-cores', opts.extrapolateCores, true),
      });
    }));

  connectionOptions(
    program
      .command('eval')
      .description('relevance of a BEIR dataset: load it (or reuse its index) and report NDCG@10, Recall@100 and MRR@10 from the server\'s _rank_eval')
      .argument('<folder>', 'BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)')
      .option('--mode <mode>', 'bm25 | sparse | hybrid', 'bm25')
      .option('--index <name>', 'index holding the corpus (default beir-<folder name>)')
      .option('--split <name>', 'qrels split', 'test')
      .option('--model <id>', 'sparse encoder for sparse and hybrid', '.sparse_model_2')
      .option('--out <dir>', 'report folder (default reports/eval-<date>)'),
  ).action(exitWith(async (folder: string, opts) => {
    const { runEval } = await import('./eval/eval-command.js');
    return runEval(folder, opts);
  }));

  program
    .command('export')
    .description('copy indices (settings, mappings, aliases, documents) and ingest pipelines to another server — Elasticsearch, OpenSearch or threadsearch — and verify the counts')
    .requiredOption('--to <url>', 'the target, e.g. https://my-cluster.es.example.com:9243 (user:password@ in the URL works too)')
    .addOption(new Option('--from <url>', 'the source').env('THREADSEARCH_URL').default('http://127.0.0.1:9200'))
    .addOption(new Option('--api-key <encoded>', 'API key for both sides, base64 of id:secret').env('THREADSEARCH_API_KEY'))
    .option('--from-api-key <encoded>', 'API key for the source (instead of --api-key)')
    .option('--to-api-key <encoded>', 'API key for the target (instead of --api-key)')
    .option('--to-user <user:password>', 'basic authentication on the target (e.g. elastic:…)')
    .option('--index <pattern>', 'indices to copy: a name, a wildcard pattern or a comma-separated list', '*')
    .option('--overwrite', 'delete target indices of the same name first (and replace pipelines of the same id)', false)
    .option('--skip-existing', 'leave target indices and pipelines that already exist as they are', false)
    .option('--model-map <from=to...>', 'replace inference model ids in pipelines, e.g. .sparse_model_2=.elser_model_2', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--resume', 'continue an interrupted export from its checkpoint file', false)
    .option('--checkpoint <file>', 'where progress is recorded after every acknowledged batch', 'threadsearch-export.checkpoint.json')
    .option('--batch-size <n>', 'documents per page read and per _bulk request', positiveInt('--batch-size'), 500)
    .option('--concurrency <n>', '_bulk requests in flight', positiveInt('--concurrency'), 2)
    .option('--max-retries <n>', 'retries of a request answered 429 or 5xx, with exponential back-off', positiveInt('--max-retries', 0), 8)
    .option('--requests-per-second <n>', 'throttle: pages read (and _bulk requests sent) per second at most', positiveNumber('--requests-per-second'))
    .option('--keep-alive <time>', 'how long the source keeps the point in time between pages', '5m')
    .option('--no-progress', 'no progress bar (it is drawn only on a terminal anyway)')
    .addHelpText('after', `
Examples:
  threadsearch export --to https://localhost:9200 --to-user elastic:$ELASTIC_PASSWORD --model-map .sparse_model_2=.elser_model_2
  threadsearch export --from http://127.0.0.1:9200 --api-key $KEY --to http://127.0.0.1:9201 --index 'articles-*' --overwrite
  threadsearch export --to https://es.example.com --to-api-key $ES_KEY --resume      # after an interruption
A self-signed target certificate (Elasticsearch 8's default): NODE_EXTRA_CA_CERTS=http_ca.crt threadsearch export …`)
    .action(exitWith(async (opts) => {
      const { runExport } = await import('./export/export-command.js');
      return runExport(opts);
    }));

  return program;
}

/** Runs one command line and returns the exit code (main.ts sets it; tests call this directly). */
export async function runCli(argv: readonly string[]): Promise<number> {
  if (isServerStart(argv)) argv = ['start', ...argv];
  const program = buildProgram();
  actionExitCode = EXIT.ok;
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return actionExitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and --version are exits with code 0; commander already printed the reason otherwise.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const command = argv[0] ?? 'start';
    if (e instanceof CliError) {
      process.stderr.write(`threadsearch ${command}: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`threadsearch ${command}: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT.failed;
  }
}
