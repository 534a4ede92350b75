import { App } from 'aws-cdk-lib';
import { buildImagingApp } from './imaging-app.ts';

// `npx cdk synth|deploy -c stage=dev|staging|prod`; the stage is validated in infra/config.ts.
// Run directly (`npx tsx infra/app.ts`), it writes the same cloud assembly to cdk.out with cdk.json's context
// left to the caller: the CLI sets CDK_OUTDIR and CDK_CONTEXT_JSON when it runs the app.
const app = new App(process.env.CDK_OUTDIR ? {} : { outdir: 'cdk.out' });
buildImagingApp(app);
app.synth();
