import { chatOperations as chat } from "../chat";
import { communityOperations as community } from "../community";
import { identityOperations as identity } from "../identity";
import { lifestyleOperations as lifestyle } from "../lifestyle";
import { marketplaceOperations as marketplace } from "../marketplace";
import { mediaOperations as media } from "../media";
import { notificationsOperations as notifications } from "../notifications";
import { ordersOperations as orders } from "../orders";
import { paymentsOperations as payments } from "../payments";
import { reportsOperations as reports } from "../reports";
import { systemOperations as system } from "../system";

/**
 * The member surface (the mobile app): the client's name for every operation a member, provider or
 * guest calls. The operations themselves (method, path, auth, schemas) are the contracts' entries.
 */
export const memberRoutes = {
  system: { info: system.systemInfo },
  auth: {
    register: identity.authRegister,
    verifyEmail: identity.authVerifyEmail,
    resendVerification: identity.authVerificationResend,
    login: identity.authLogin,
    loginVerify: identity.authLoginVerify,
    resendLoginCode: identity.authLoginCodeResend,
    refresh: identity.authRefresh,
    logout: identity.authLogout,
    me: identity.authMeGet,
    updateMe: identity.authMeUpdate,
    deleteMe: identity.authMeDelete,
    requestPasswordReset: identity.authPasswordResetRequest,
    confirmPasswordReset: identity.authPasswordResetConfirm,
    sessions: identity.authSessionsList,
    endSession: identity.authSessionsEnd,
    endOtherSessions: identity.authSessionsEndOthers,
    changePassword: identity.authPasswordChange,
    requestExport: identity.authMeExportRequest,
    dataExport: identity.authMeExportGet,
    changeEmail: identity.authEmailChange,
    verifyEmailChange: identity.authEmailVerify,
    undoEmailChange: identity.authEmailUndo,
  },
  catalog: {
    services: marketplace.catalogServicesList,
    categories: marketplace.catalogCategoriesList,
  },
  providers: {
    create: marketplace.providersCreate,
    updateMe: marketplace.providersMeUpdate,
    dashboard: marketplace.providersMeDashboard,
    recordSale: marketplace.providersMeSalesCreate,
  },
  listings: {
    list: marketplace.listingsList,
    get: marketplace.listingsGet,
    create: marketplace.listingsCreate,
    update: marketplace.listingsUpdate,
    deactivate: marketplace.listingsDelete,
    contact: marketplace.listingsContact,
    addMenuItem: marketplace.menuItemsCreate,
    createSubscriptionPayment: payments.listingSubscriptionPaymentsCreate,
  },
  menuItems: {
    update: marketplace.menuItemsUpdate,
    delete: marketplace.menuItemsDelete,
  },
  orders: {
    list: orders.ordersList,
    create: orders.ordersCreate,
    get: orders.ordersGet,
    /** A guest's read: pass `{ headers: { "x-guest-access-token": token } }`. */
    getAsGuest: orders.guestOrdersGet,
    /** The receipt's unsubscribe link: the token from its fragment. */
    stopGuestMail: orders.guestOrdersUnsubscribe,
    transition: orders.ordersTransition,
    createPayment: payments.orderPaymentsCreate,
  },
  payments: {
    submit: payments.paymentsSubmit,
    addEvidence: payments.paymentsEvidenceAttach,
    confirm: payments.paymentsConfirm,
  },
  devices: {
    /** 201 with the device, or 202 `proof_sent` when another account's session holds the token. */
    register: notifications.devicesRegister,
  },
  notifications: {
    list: notifications.notificationsList,
    markRead: notifications.notificationsMarkRead,
  },
  chat: {
    conversations: chat.conversationsList,
    openConversation: chat.conversationsCreate,
    messages: chat.messagesList,
    send: chat.messagesSend,
    markRead: chat.conversationsMarkRead,
  },
  media: {
    requestUpload: media.mediaUpload,
    /** Starts the processing of an uploaded asset; `media.upload` (the client's) calls it for you. */
    confirm: media.mediaConfirm,
    get: media.mediaGet,
  },
  community: {
    feed: community.communityFeed,
    createMoment: community.momentsCreate,
    like: community.momentsLike,
    view: community.momentsView,
    counters: community.momentsCounters,
    comments: community.momentCommentsList,
    comment: community.momentCommentsCreate,
    report: community.momentsReport,
    /** Reports anything: a moment, comment, message, user, dating profile, listing or meeting. */
    reportAnything: reports.reportsCreate,
    block: community.usersBlock,
    unblock: community.usersUnblock,
    editMoment: community.momentsEdit,
    deleteMoment: community.momentsDelete,
    unlike: community.momentsUnlike,
    editComment: community.commentsEdit,
    deleteComment: community.commentsDelete,
    mute: community.usersMute,
    unmute: community.usersUnmute,
    mutes: community.mutesList,
  },
  dating: {
    putProfile: lifestyle.datingProfilePut,
    browse: lifestyle.datingBrowse,
  },
  curatedContent: { list: lifestyle.curatedContentList },
  announcements: { list: lifestyle.announcementsList },
  meetings: {
    list: lifestyle.meetingsList,
    create: lifestyle.meetingsCreate,
    join: lifestyle.meetingsJoin,
    leave: lifestyle.meetingsLeave,
    end: lifestyle.meetingsEnd,
  },
} as const;
