import { App } from 'aws-cdk-lib';
import { buildImagingApp } from './imaging-app.ts';

// `npx cdk synth|deploy -c stage=dev|staging|prod`; the stage is validated in infra/config.ts.
const app = new App();
buildImagingApp(app);
app.synth();
