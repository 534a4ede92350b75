import type { MailMessage, Mailer } from '#shared/domain/invitations/ports.ts';
import { prepareClient, type ClientWithMiddleware } from '#functions/adapters/aws-clients.ts';

/**
 * SESv2 SendEmail input (Amazon SES API v2, SendEmail): simple content with both bodies in UTF-8, the stage's
 * configuration set (its event destination records deliveries, bounces and complaints) and a tag naming the kind of
 * message. Built apart from the client so it is tested without the network.
 */
export function sendEmailInput(message: MailMessage, options: { from: string; configurationSet: string }) {
  return {
    FromEmailAddress: options.from,
    Destination: { ToAddresses: [message.to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject, Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          Html: { Data: message.html, Charset: 'UTF-8' },
        },
      },
    },
    ConfigurationSetName: options.configurationSet,
    EmailTags: [
      { Name: 'kind', Value: message.tag },
      ...(message.refs
        ? [
            { Name: 'hospitalId', Value: message.refs.hospitalId },
            { Name: 'invitationId', Value: message.refs.invitationId },
          ]
        : []),
    ],
  };
}

/** The part of an SDK v3 client the mailer uses. */
export type SesClientLike = { send(command: unknown): Promise<unknown> };
export type SesSdk = {
  SESv2Client: new (config: { region: string; endpoint?: string }) => SesClientLike & ClientWithMiddleware;
  SendEmailCommand: new (input: ReturnType<typeof sendEmailInput>) => unknown;
};

/** Package of the SESv2 client (AWS SDK for JavaScript v3), loaded on first send. */
const SESV2_PACKAGE = '@aws-sdk/client-sesv2';

/**
 * The mailer: SESv2 SendEmail through the AWS SDK v3 client, at the regional endpoint unless one is given. The SDK
 * module is loaded on first use, so code paths that never send mail do not load it.
 */
export function createSesMailer(options: {
  region: string;
  endpoint?: string;
  from: () => string;
  configurationSet: () => string;
  sdk?: () => Promise<SesSdk>;
}): Mailer {
  const load = options.sdk ?? (() => import(/* @vite-ignore */ SESV2_PACKAGE) as Promise<SesSdk>);
  let ready: Promise<{ client: SesClientLike; sdk: SesSdk }> | undefined;
  const connect = () =>
    (ready ??= load().then((sdk) => ({
      sdk,
      client: prepareClient(
        new sdk.SESv2Client({ region: options.region, ...(options.endpoint ? { endpoint: options.endpoint } : {}) }),
      ),
    })));
  return {
    async send(message) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.SendEmailCommand(
          sendEmailInput(message, { from: options.from(), configurationSet: options.configurationSet() }),
        ),
      );
    },
  };
}
