# The web inspector, `actctl serve` (docs/inspector.md): its sources, and its
# page's files (assets/) embedded into actctl by embed_assets.cmake.
set(INSPECTOR_DIR ${CMAKE_CURRENT_LIST_DIR})
set(INSPECTOR_ASSETS
  ${INSPECTOR_DIR}/assets/index.html
  ${INSPECTOR_DIR}/assets/inspector.css
  ${INSPECTOR_DIR}/assets/common.js
  ${INSPECTOR_DIR}/assets/overview.js
  ${INSPECTOR_DIR}/assets/log.js
  ${INSPECTOR_DIR}/assets/stream.js
  ${INSPECTOR_DIR}/assets/work.js
  ${INSPECTOR_DIR}/assets/verify.js
  ${INSPECTOR_DIR}/assets/correlation.js
  ${INSPECTOR_DIR}/assets/partitions.js
  ${INSPECTOR_DIR}/assets/main.js)
set(INSPECTOR_ASSETS_CPP ${CMAKE_BINARY_DIR}/generated/inspector_assets.cpp)
# A list cannot cross the command line as one -D value: "|" stands for ";".
string(REPLACE ";" "|" INSPECTOR_ASSET_LIST "${INSPECTOR_ASSETS}")
add_custom_command(
  OUTPUT ${INSPECTOR_ASSETS_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${INSPECTOR_ASSETS_CPP} -DASSETS=${INSPECTOR_ASSET_LIST}
          -P ${INSPECTOR_DIR}/embed_assets.cmake
  DEPENDS ${INSPECTOR_ASSETS} ${INSPECTOR_DIR}/embed_assets.cmake
  COMMENT "Embedding the inspector's page"
  VERBATIM)
target_sources(actctl PRIVATE
  ${INSPECTOR_DIR}/action_audit.cpp
  ${INSPECTOR_DIR}/action_request.cpp
  ${INSPECTOR_DIR}/action_routes.cpp
  ${INSPECTOR_DIR}/answer.cpp
  ${INSPECTOR_DIR}/checkpoint_json.cpp
  ${INSPECTOR_DIR}/event_json.cpp
  ${INSPECTOR_DIR}/event_routes.cpp
  ${INSPECTOR_DIR}/note_signatures.cpp
  ${INSPECTOR_DIR}/pages.cpp
  ${INSPECTOR_DIR}/partition_routes.cpp
  ${INSPECTOR_DIR}/request_params.cpp
  ${INSPECTOR_DIR}/serve.cpp
  ${INSPECTOR_DIR}/status_routes.cpp
  ${INSPECTOR_DIR}/subscription_row.cpp
  ${INSPECTOR_DIR}/verify_routes.cpp
  ${INSPECTOR_DIR}/work_routes.cpp
  ${INSPECTOR_DIR}/write_guard.cpp
  ${INSPECTOR_ASSETS_CPP})
# Its files include the rest of actctl's as "name.hpp" and each other as "inspector/name.hpp".
target_include_directories(actctl PRIVATE ${INSPECTOR_DIR}/..)
