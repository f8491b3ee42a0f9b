/**
 * The `operationId` of every documented operation, by `METHOD path`: what generated SDKs name their
 * methods (`client.authLogin()`, `client.adminOrdersTransition()`). Area first, then what it does
 * (`List`, `Get`, `Create`, `Update`, `Delete`, or the action's own verb). Part of the public
 * contract: renaming one breaks generated clients, so an id never changes once published. The
 * document refuses to build while a route has no id here or an id names no route.
 */
export const operationIds: Readonly<Record<string, string>> = {
  // Notifications
  "POST /api/v1/devices": "devicesRegister",
  "GET /api/v1/notifications": "notificationsList",
  "POST /api/v1/notifications/{id}/read": "notificationsMarkRead",
  // Community
  "GET /api/v1/community/feed": "communityFeed",
  "POST /api/v1/community/moments": "momentsCreate",
  "POST /api/v1/community/moments/{id}/like": "momentsLike",
  "POST /api/v1/community/moments/{id}/view": "momentsView",
  "GET /api/v1/community/moments/{id}/counters": "momentsCounters",
  "GET /api/v1/community/moments/{id}/comments": "momentCommentsList",
  "POST /api/v1/community/moments/{id}/comments": "momentCommentsCreate",
  "POST /api/v1/community/moments/{id}/report": "momentsReport",
  "POST /api/v1/community/users/{id}/block": "usersBlock",
  "DELETE /api/v1/community/users/{id}/block": "usersUnblock",
  // Lifestyle
  "PUT /api/v1/dating/profile": "datingProfilePut",
  "GET /api/v1/dating/browse": "datingBrowse",
  "GET /api/v1/curated-content": "curatedContentList",
  "GET /api/v1/announcements": "announcementsList",
  "GET /api/v1/meetings": "meetingsList",
  "POST /api/v1/meetings": "meetingsCreate",
  "POST /api/v1/meetings/{id}/join": "meetingsJoin",
  "POST /api/v1/meetings/{id}/leave": "meetingsLeave",
  "POST /api/v1/meetings/{id}/end": "meetingsEnd",
  // Media
  "POST /api/v1/media/upload": "mediaUpload",
  "GET /api/v1/media/{id}": "mediaGet",
  // Chat
  "GET /api/v1/chat/conversations": "conversationsList",
  "POST /api/v1/chat/conversations": "conversationsCreate",
  "GET /api/v1/chat/conversations/{id}/messages": "messagesList",
  "POST /api/v1/chat/conversations/{id}/messages": "messagesSend",
  "POST /api/v1/chat/conversations/{id}/read": "conversationsMarkRead",
  "GET /api/v1/chat/conversations/{id}/realtime": "conversationsRealtime",
  // Admin console
  "POST /api/v1/admin/announcements": "adminAnnouncementsCreate",
  "GET /api/v1/admin/community/reports": "adminReportsList",
  "POST /api/v1/admin/community/reports/{id}/moderate": "adminReportsModerate",
  "POST /api/v1/admin/community/reports/{id}/status": "adminReportsStatusUpdate",
  "GET /api/v1/admin/overview": "adminOverview",
  "GET /api/v1/admin/exports/reports.csv": "adminReportsExportCsv",
  "GET /api/v1/admin/audit": "adminAuditList",
  "GET /api/v1/admin/accountants/{id}/services": "adminAccountantServicesGet",
  "PUT /api/v1/admin/accountants/{id}/services": "adminAccountantServicesPut",
  "GET /api/v1/reports/summary": "reportsSummary",
  "GET /api/v1/admin/{kind}": "adminCollectionList",
  "PATCH /api/v1/admin/{kind}/{id}/status": "adminStatusUpdate",
};
