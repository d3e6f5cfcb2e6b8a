import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** One transport per SMTP URL: nodemailer pools nothing by default, so this only saves the parsing. */
const transports = new Map<string, Transporter>();

/** Whether outbound mail is configured (GATEHOUSE_SMTP_URL). */
export const mailConfigured = (config: Config) => config.smtpUrl !== undefined;

/**
 * Sends one mail through the administrator's SMTP relay; does nothing (and says so) when no
 * relay is configured, so the work that would have mailed goes on without it.
 */
export async function sendMail(config: Config, mail: Mail): Promise<'sent' | 'not_configured'> {
  if (!config.smtpUrl) return 'not_configured';
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    transport = nodemailer.createTransport(config.smtpUrl);
    transports.set(config.smtpUrl, transport);
  }
  await transport.sendMail({ from: config.smtpFrom, to: mail.to, subject: mail.subject, text: mail.text });
  return 'sent';
}
