import type { Feature } from '../crud/feature-contract.ts';
import type { PrintContext } from '../print/print-feature.ts';
import type { MailSettings } from './mailer.ts';
import { registerEmailRoutes } from './email-routes.ts';

/** Documents sent by e-mail (MAIL_NOT_CONFIGURED without SMTP). */
export const mailFeature: Feature<PrintContext & { mail?: MailSettings }> = {
  name: 'mail',
  routes: ({ app, service, policy, contextOf, printFiles, mail }) => registerEmailRoutes(app, service, policy, contextOf, { db: service.db.kysely, mail, files: printFiles }),
};
