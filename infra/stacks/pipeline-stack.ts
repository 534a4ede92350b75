import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  taskArnVariable,
  type PipelineTask,
} from '#shared/definitions/state-machine.ts';
import { MAX_CONCURRENT_RUNS_PER_HOSPITAL } from '#shared/domain/pipeline/run-slots.ts';
import type { StageConfig } from '#infra/config.ts';
import { ImagingFunction } from '#infra/constructs/imaging-function.ts';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import {
  PIPELINE_TASK_GRANTS,
  pipelineTaskDeclaration,
  SCHEDULED_JOBS,
  scheduledJobDeclaration,
} from '#infra/function-declarations.ts';
import { resourceNames, stageMail, stateMachineArn } from '#infra/resource-names.ts';

/** Re-exported for tests and tools that list the pipeline's functions. */
export { PIPELINE_TASK_GRANTS as PIPELINE_TASK_ACCESS };

export type PipelineStackProps = StackProps & {
  config: StageConfig;
  dataKey: IKey;
  pseudonymSecret: ISecret;
  /** Signs the audit digests (the hourly digest writer, docs/domain.md#signed-digests). */
  auditDigestKey: IKey;
};

/**
 * The dataset pipeline: one Lambda per task of shared/definitions/state-machine.ts (entry, memory and timeout from
 * there) and the state machine built from buildPipelineDefinition() with each `${<State>FunctionArn}`
 * substituted. Execution data is never logged (it names datasets and, on failure, carries error text).
 */
export class PipelineStack extends Stack {
  readonly stateMachine: StateMachine;
  readonly taskFunctions: Record<string, ImagingFunction>;
  readonly definitionSubstitutions: Record<string, string>;
  /** Scheduled jobs (data retention), each with its EventBridge rule. */
  readonly jobFunctions: Record<string, ImagingFunction>;

  constructor(scope: Construct, id: string, props: PipelineStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    this.taskFunctions = Object.fromEntries(
      ALL_PIPELINE_TASKS.map((task) => [task.state, this.createTaskFunction(task, props)]),
    );
    this.jobFunctions = this.createScheduledJobs(props);
    this.definitionSubstitutions = Object.fromEntries(
      ALL_PIPELINE_TASKS.map((task) => [taskArnVariable(task.state), this.taskFunctions[task.state]!.functionArn]),
    );

    const logGroup = new LogGroup(this, 'PipelineLogs', {
      logGroupName: `/aws/vendedlogs/states/${names.stateMachine}`,
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    this.stateMachine = new StateMachine(this, 'Pipeline', {
      stateMachineName: names.stateMachine,
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(JSON.stringify(buildPipelineDefinition())),
      definitionSubstitutions: this.definitionSubstitutions,
      // PHI rule: execution input/output is never written to logs.
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
      timeout: Duration.hours(3),
    });
    // Task Resources are unqualified function ARNs: grant exactly those, not `<arn>:*`.
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: Object.values(this.taskFunctions).map((fn) => fn.functionArn),
      }),
    );
    Validations.of(this.stateMachine).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Step Functions log delivery (logs:CreateLogDelivery and related) and X-Ray tracing support no resource-level permissions.',
      },
      {
        id: 'HIPAA.Security-IAMNoInlinePolicy',
        reason:
          'The state machine role has one policy of its own: invoke exactly the task functions, deliver logs, trace.',
      },
    );
  }

  /** One function per scheduled job and the EventBridge rule that invokes it (docs/pipeline.md#data-retention). */
  private createScheduledJobs(props: PipelineStackProps): Record<string, ImagingFunction> {
    return Object.fromEntries(
      SCHEDULED_JOBS.map((job) => {
        const fn = new ImagingFunction(this, {
          config: props.config,
          declaration: scheduledJobDeclaration(job),
          dataKey: props.dataKey,
          pseudonymSecret: props.pseudonymSecret,
          reservedConcurrency: 1,
          ...(job.grants.auditDigests ? { auditDigestKeyArn: props.auditDigestKey.keyArn } : {}),
          // A job that sends mail (the monthly report) uses the API stack's sender and configuration set, whose
          // names follow from the stage's configuration alone.
          ...(job.grants.sendsMail ? stageMail(props.config) : {}),
          // The intake sweep starts the pipeline (docs/dicom-intake.md#commit): the state machine's ARN by its name.
          ...(job.grants.startsPipeline
            ? { stateMachineArn: stateMachineArn(resourceNames(props.config).stateMachine) }
            : {}),
        });
        new Rule(this, `${job.id}Schedule`, {
          description: job.description,
          schedule: Schedule.cron({
            minute: job.cron.minute,
            hour: job.cron.hour,
            ...(job.cron.day ? { day: job.cron.day } : {}),
          }),
          targets: [new LambdaFunction(fn, { retryAttempts: 2 })],
        });
        return [job.id, fn];
      }),
    );
  }

  private createTaskFunction(task: PipelineTask, props: PipelineStackProps): ImagingFunction {
    return new ImagingFunction(this, {
      config: props.config,
      declaration: pipelineTaskDeclaration(task),
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      concurrencyBound:
        `Runs only as a step of a pipeline execution, and a hospital has at most ${MAX_CONCURRENT_RUNS_PER_HOSPITAL} ` +
        'executions past AcquireRunSlot at once (the run slots in the table); the others wait there without invoking it. ' +
        'Within one execution the series Map runs at most the same number of series at once (MaxConcurrencyPath).',
    });
  }
}
