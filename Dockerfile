# geniusbot, the Discord bot: one process per container, `geniusbot run` (docs/deploy.md).
# Settings come from the environment (DISCORD_TOKEN, DATABASE_URL, ...), never from the image.

# ---- build: the project and its dependencies as wheels ---------------------------------------
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY geniusbot ./geniusbot
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# ---- run ---------------------------------------------------------------------------------------
FROM python:3.11-slim
# The pictures' font: DejaVu Sans draws Latin with accents, Greek and Cyrillic names. For Korean,
# Japanese or Chinese names build with --build-arg FONTS="fonts-dejavu-core fonts-noto-cjk" and set
# FONT_PATH=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc.
ARG FONTS="fonts-dejavu-core"
RUN apt-get update \
    && apt-get install -y --no-install-recommends ${FONTS} \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels geniusbot && rm -rf /wheels
RUN useradd --create-home --uid 10001 geniusbot && mkdir /data && chown geniusbot /data
USER geniusbot
WORKDIR /home/geniusbot
ENV PYTHONUNBUFFERED=1 \
    GENIUSBOT_DATA_DIR=/data \
    FONT_PATH=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
    HEALTH_PORT=8080
VOLUME /data
EXPOSE 8080
# 200 from /healthz: ready and the database answers (urllib raises on a 503 or no answer).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('HEALTH_PORT') or '8080'), timeout=8)"
ENTRYPOINT ["geniusbot"]
CMD ["run"]
