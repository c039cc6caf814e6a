import type { CustomerError } from '../../core/http/errors';

/**
 * What the live chat answers that a customer may read (issue 27): each with its stable code (the widget's catalogue
 * renders `error.<code>` in the customer's language) and the English message API users read.
 */
export const LIVECHAT_ERRORS = {
    tooFast: { code: 'livechat.too_fast', message: 'You are sending messages too fast. Please wait a moment.' },
    tooManyChats: { code: 'livechat.too_many_chats', message: 'Too many chat requests. Please try again later.' },
    tooManyOffline: { code: 'livechat.too_many_offline', message: 'Too many offline messages. Please try again later.' },
    /** A store's hourly ceiling of left messages is reached (OFFLINE_MESSAGES_PER_STORE_HOUR). */
    offlineStoreFull: { code: 'livechat.offline_store_full', message: 'This store has received many messages in the last hour. Please try again later.' },
    invalidEmail: { code: 'livechat.invalid_email', message: 'Please enter a valid email address' },
    messageEmpty: { code: 'livechat.message_empty', message: 'Please write a message' },
    chatEnded: { code: 'livechat.chat_ended', message: 'This chat has ended' },
    /** A new chat asked for outside the store's support hours (issue 26; the widget asks check-availability first). */
    closed: { code: 'livechat.closed', message: 'Live support is closed right now' },
    /** A chat is rated once (issue 28): the second rating, from the widget or the mailed link, is refused. */
    alreadyRated: { code: 'livechat.already_rated', message: 'This chat has already been rated' },
    /** A chat is rated after it ended. */
    notEnded: { code: 'livechat.rating_too_early', message: 'A chat can be rated once it has ended' }
} satisfies Record<string, CustomerError>;

/**
 * Attachments (issue 29): what the widget and the console say about a refused file, each with its code (the catalogues
 * render `error.<code>`). The size message names the limit in MB (`args.mb`).
 */
export const FILE_ERRORS = {
    type: { code: 'livechat.file_type', message: 'This kind of file can\'t be sent. Please send a photo (JPEG, PNG, WebP, GIF) or a PDF.' },
    heic: { code: 'livechat.file_heic', message: 'HEIC photos can\'t be sent yet. Please choose "Most Compatible" in your camera settings, or send a screenshot.' },
    size: { code: 'livechat.file_size', message: 'This file is too big. Files can be up to {mb} MB.' },
    pixels: { code: 'livechat.file_pixels', message: 'This image is too large to open. Please send a smaller one.' },
    unreadable: { code: 'livechat.file_unreadable', message: 'This file could not be read. Please try another one.' },
    empty: { code: 'livechat.file_empty', message: 'This file is empty.' },
    count: { code: 'livechat.file_count', message: 'You can send up to 5 files in one message.' },
    unknown: { code: 'livechat.file_unknown', message: 'This file is no longer available. Please attach it again.' },
    tooMany: { code: 'livechat.file_too_many', message: 'Too many files sent. Please try again later.' }
} satisfies Record<string, CustomerError>;

/** What only staff read (the console's left messages, issue 23): codes the admin app can name, never the widget. */
export const LIVECHAT_STAFF_ERRORS = {
    /** A left message whose reply address is unknown (an old row whose system line named none). */
    noReplyAddress: { code: 'livechat.no_reply_address', message: 'This message has no reply address' },
    /** The reply to a left message could not be mailed (nothing was stored). */
    replyNotSent: { code: 'livechat.reply_not_sent', message: 'The reply could not be mailed' },
    notFound: { code: 'livechat.left_message_not_found', message: 'Left message not found' },
    /** More replies by email than a store sends in an hour (the console is not a mailing tool). */
    tooManyReplies: { code: 'livechat.too_many_replies', message: 'This store has sent many replies by email in the last hour. Please try again later.' }
} satisfies Record<string, CustomerError>;

/** Too long a message: its text needs the limit (`args.max`). */
export function messageTooLong(max: number): CustomerError & { args: { max: number } } {
    return { code: 'livechat.message_too_long', message: `Message is too long: at most ${max} characters`, args: { max } };
}

/**
 * Codes of the new fields' validation failures (issue 23): the widget always sends valid values, so it has no texts
 * of its own for them and shows the server's message; the console shows the message too.
 */
export const LIVECHAT_INPUT_CODES = {
    pageUrl: 'livechat.invalid_page_url',
    name: 'livechat.invalid_name',
    lang: 'livechat.invalid_lang',
    state: 'livechat.invalid_state',
    clientMessageId: 'livechat.invalid_client_message_id'
} as const;
